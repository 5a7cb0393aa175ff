package bitcode

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"augur/analyzer/frontend/ir"
	"augur/internal/cachefile"
)

// Loading a program parses, links and lowers every bitcode file of it,
// augur's runtime included: a hundred milliseconds and more before the
// first instruction runs, for a program that has not changed since the
// last run. LoadCached keeps the lowered program in a cache directory,
// keyed by the bitcode's contents, the names given to it, and the augur
// executable that lowered it (a rebuilt augur lowers afresh), and decodes
// it instead when it is there.

// cacheFormat changes whenever the cached form changes (codec.go): 2 since
// it is no longer gob's.
const cacheFormat = 2

// LoadCached is LoadNamed, through a cache of lowered programs under dir
// (no cache when dir is empty). A cache that cannot be read or written
// only costs the time it would have saved.
func LoadCached(paths []string, names map[string]string, dir string) (*ir.Program, error) {
	if dir == "" {
		return LoadNamed(paths, names)
	}
	key, err := cacheKey(paths, names)
	if err != nil {
		return LoadNamed(paths, names)
	}
	file := filepath.Join(dir, "program", key+cachedExt)
	if p, err := readCached(file); err == nil {
		cachefile.Touch(file) // recently used: pruned last
		p.Bitcode, p.Names = append([]string(nil), paths...), names
		return p, nil
	}
	p, err := LoadNamed(paths, names)
	if err != nil {
		return nil, err
	}
	if writeCached(file, p) == nil { // best effort
		cachefile.Keep(file, cachedExt, cachefile.Limits{Files: maxCachedPrograms})
		old, _ := filepath.Glob(filepath.Join(filepath.Dir(file), "*.gob"))
		for _, f := range old { // format 1's, never read again
			os.Remove(f)
		}
	}
	return p, nil
}

// cachedExt ends a cached program's file name. (Format 1's ended in .gob;
// LoadCached removes them when it writes a program.)
const cachedExt = ".prog"

// maxCachedPrograms bounds the lowered programs kept (a few hundred
// kilobytes each): an editor makes a new one at every save.
const maxCachedPrograms = 64

// cacheKey fingerprints what a lowered program depends on.
func cacheKey(paths []string, names map[string]string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "augur lowered program %d\x00", cacheFormat)
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	st, err := os.Stat(exe)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(h, "%s\x00%d\x00%d\x00", exe, st.Size(), st.ModTime().UnixNano())
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%s\x00%d\x00", p, names[p], len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

func writeCached(file string, p *ir.Program) error {
	// Not compressed: flate halved the file (to about 130 kB with the C
	// library) and took as long to inflate as the decoding takes.
	return cachefile.WriteAtomic(file, ir.EncodeProgram(p))
}

func readCached(file string) (*ir.Program, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return ir.DecodeProgram(data)
}
