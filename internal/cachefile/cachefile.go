// Package cachefile holds what augur's caches (compiled bitcode, lowered
// programs, histories, downloaded bitcode, the compiler's version) do to
// their files: write one whole or not at all, mark one used, and drop the
// least recently used past a bound. Several processes share a cache: a
// reader sees a file before or after a write, never half of it.
package cachefile

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// WriteAtomic writes data to path through a temporary file in the same
// directory and a rename, creating the directory; the file is readable by
// all (0644), as the caches' files are.
func WriteAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// Touch marks path used now: Prune drops it last.
func Touch(path string) {
	now := time.Now()
	_ = os.Chtimes(path, now, now)
}

// Limits bound what Prune keeps; zero means no bound.
type Limits struct {
	Files int   // entries
	Bytes int64 // their size
}

// Keep keeps the directory of path within lim after path, an entry of it
// (a file named *ext, with its companions), was written. It counts the
// entry and its size in the directory's ledger, and reads the directory to drop the
// least recently used entries (Prune) only when the ledger says dir is
// past a limit, has no ledger, or counted rescanEvery entries since the
// last time: the bitcode cache holds thousands of files, and reading them
// all after every compile (every save in the editor) cost each a third
// of a second. Processes that add at once may each miss the other's
// count, so the ledger can say less than there is; the next scan, at
// most rescanEvery entries on, corrects it.
func Keep(path, ext string, lim Limits, companions ...string) {
	dir := filepath.Dir(path)
	var size int64
	if info, err := os.Stat(path); err == nil {
		size = info.Size()
	}
	l, ok := readLedger(dir, ext)
	l.files, l.bytes, l.adds = l.files+1, l.bytes+size, l.adds+1
	if !ok || lim.over(l.files, l.bytes) || l.adds >= rescanEvery {
		Prune(dir, ext, lim, companions...)
		return
	}
	l.write(dir, ext)
}

// rescanEvery is how many entries Keep counts before it reads the
// directory again whatever its ledger says.
const rescanEvery = 256

// ledger is what a cache directory holds by its own count: entries, their
// bytes, and the entries added since the directory was last read.
type ledger struct {
	files int
	bytes int64
	adds  int
}

// ledgerPath is the ledger of dir's entries named *ext (not itself one).
func ledgerPath(dir, ext string) string { return filepath.Join(dir, ext+".ledger") }

// readLedger returns dir's ledger, and whether it had a readable one.
func readLedger(dir, ext string) (ledger, bool) {
	var l ledger
	data, err := os.ReadFile(ledgerPath(dir, ext))
	if err != nil {
		return l, false
	}
	_, err = fmt.Sscan(string(data), &l.files, &l.bytes, &l.adds)
	return l, err == nil
}

func (l ledger) write(dir, ext string) {
	_ = WriteAtomic(ledgerPath(dir, ext), fmt.Appendf(nil, "%d %d %d\n", l.files, l.bytes, l.adds))
}

// over reports whether n entries of bytes in all are past the limits.
func (lim Limits) over(n int, bytes int64) bool {
	return lim.Files > 0 && n > lim.Files || lim.Bytes > 0 && bytes > lim.Bytes
}

// Prune removes the least recently used entries of dir, the files named
// *ext, until what is left is within the limits; each entry goes with its
// companions (the same name with each of the other extensions). It
// leaves the ledger Keep reads saying what is left.
func Prune(dir, ext string, lim Limits, companions ...string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type entry struct {
		stem string
		size int64
		used time.Time
	}
	var all []entry
	var total int64
	for _, e := range entries {
		stem, ok := strings.CutSuffix(e.Name(), ext)
		if !ok {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		all = append(all, entry{stem, info.Size(), info.ModTime()})
		total += info.Size()
	}
	sort.Slice(all, func(i, j int) bool { return all[i].used.Before(all[j].used) })
	n := len(all)
	for _, e := range all {
		if !lim.over(n, total) {
			break
		}
		os.Remove(filepath.Join(dir, e.stem+ext))
		for _, c := range companions {
			os.Remove(filepath.Join(dir, e.stem+c))
		}
		n, total = n-1, total-e.size
	}
	ledger{files: n, bytes: total}.write(dir, ext)
}
