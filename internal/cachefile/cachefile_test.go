package cachefile

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// aged writes files named NAME{i}EXT, 100 bytes each, the later i the
// more recently used.
func aged(t *testing.T, dir, name string, n int, exts ...string) {
	t.Helper()
	base := time.Now().Add(-time.Hour)
	for i := range n {
		for _, ext := range exts {
			f := filepath.Join(dir, fmt.Sprintf("%s%02d%s", name, i, ext))
			if err := os.WriteFile(f, make([]byte, 100), 0o644); err != nil {
				t.Fatal(err)
			}
			at := base.Add(time.Duration(i) * time.Minute)
			os.Chtimes(f, at, at)
		}
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// A bound on the entries keeps the most recently used ones (the cache of
// lowered programs keeps 64).
func TestPruneKeepsTheRecent(t *testing.T) {
	dir := t.TempDir()
	aged(t, dir, "p", 70, ".gob")
	Prune(dir, ".gob", Limits{Files: 64})
	entries, _ := os.ReadDir(dir)
	if len(entries) != 64 {
		t.Fatalf("%d left, want 64", len(entries))
	}
	for i := range 6 {
		if exists(filepath.Join(dir, fmt.Sprintf("p%02d.gob", i))) {
			t.Errorf("p%02d.gob, among the oldest, was kept", i)
		}
	}
}

// A bound on the size keeps the most recently used entries within it,
// each entry's companion going with it (the bitcode cache: a unit's
// bitcode and its manifest).
func TestPruneBySizeTakesTheCompanions(t *testing.T) {
	dir := t.TempDir()
	aged(t, dir, "unit", 10, ".bc", ".deps")
	Prune(dir, ".bc", Limits{Bytes: 450}, ".deps")
	for i := range 10 {
		bc := exists(filepath.Join(dir, fmt.Sprintf("unit%02d.bc", i)))
		deps := exists(filepath.Join(dir, fmt.Sprintf("unit%02d.deps", i)))
		if bc != (i >= 6) || deps != bc {
			t.Errorf("unit%02d: bitcode kept %v, manifest kept %v; want the 4 most recent kept", i, bc, deps)
		}
	}
}

// A write is whole or absent, readable by all, and leaves no temporary
// file behind; Touch makes a file the most recently used.
func TestWriteAtomicAndTouch(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "f.json")
	if err := WriteAtomic(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(path, []byte("two")); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	st, _ := os.Stat(path)
	entries, _ := os.ReadDir(filepath.Dir(path))
	if string(data) != "two" || st.Mode().Perm() != 0o644 || len(entries) != 1 {
		t.Errorf("contents %q, mode %v, %d files", data, st.Mode().Perm(), len(entries))
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(path, old, old)
	Touch(path)
	if st, _ := os.Stat(path); time.Since(st.ModTime()) > time.Minute {
		t.Errorf("touched, still dated %v", st.ModTime())
	}
}
