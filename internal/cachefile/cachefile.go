// Package cachefile holds what augur's caches (compiled bitcode, lowered
// programs, histories, downloaded bitcode, the compiler's version) do to
// their files: write one whole or not at all, mark one used, and drop the
// least recently used past a bound. Several processes share a cache: a
// reader sees a file before or after a write, never half of it.
package cachefile

import (
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

// Prune removes the least recently used entries of dir, the files named
// *ext, until what is left is within the limits; each entry goes with its
// companions (the same name with each of the other extensions).
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
	over := func(n int, bytes int64) bool {
		return lim.Files > 0 && n > lim.Files || lim.Bytes > 0 && bytes > lim.Bytes
	}
	sort.Slice(all, func(i, j int) bool { return all[i].used.Before(all[j].used) })
	n := len(all)
	for _, e := range all {
		if !over(n, total) {
			break
		}
		os.Remove(filepath.Join(dir, e.stem+ext))
		for _, c := range companions {
			os.Remove(filepath.Join(dir, e.stem+c))
		}
		n, total = n-1, total-e.size
	}
}
