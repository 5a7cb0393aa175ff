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
	if entries, _ := filepath.Glob(filepath.Join(dir, "*.gob")); len(entries) != 64 {
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

// Keep reads the directory only when its ledger says it is past a limit,
// it has none, or rescanEvery entries were counted since: entries added
// behind its back (another process's, uncounted) are found by that scan,
// and the least recently used go then.
func TestKeepScansOnlyWhenTheLedgerSaysSo(t *testing.T) {
	dir := t.TempDir()
	lim := Limits{Bytes: 1000}
	keep := func(name string, size int, lim Limits) {
		t.Helper()
		path := filepath.Join(dir, name+".bc")
		if err := os.WriteFile(path, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name+".deps"), nil, 0o644)
		Keep(path, ".bc", lim, ".deps")
	}
	aged(t, dir, "unit", 5, ".bc", ".deps") // an hour old
	keep("new00", 100, lim)                 // no ledger yet: a scan
	if l, ok := readLedger(dir, ".bc"); !ok || l.files != 6 || l.bytes != 600 || l.adds != 0 {
		t.Fatalf("ledger after the first scan: %+v (read: %v), want 6 files of 600 bytes", l, ok)
	}
	aged(t, dir, "other", 6, ".bc", ".deps") // uncounted, and older than the units
	for i := range 6 {
		for _, ext := range []string{".bc", ".deps"} {
			at := time.Now().Add(-3*time.Hour + time.Duration(i)*time.Minute)
			os.Chtimes(filepath.Join(dir, fmt.Sprintf("other%02d%s", i, ext)), at, at)
		}
	}
	for i := 1; i <= 4; i++ {
		keep(fmt.Sprintf("new%02d", i), 100, lim) // 700 to 1000 bytes by the ledger
	}
	if !exists(filepath.Join(dir, "other00.bc")) {
		t.Fatal("Keep read the directory although its ledger said 1000 bytes of 1000")
	}
	keep("new05", 100, lim) // 1100 by the ledger: a scan finds 1700
	if n, _ := filepath.Glob(filepath.Join(dir, "*.bc")); len(n) != 10 {
		t.Errorf("%d entries after the scan, want the 10 most recent (1000 bytes)", len(n))
	}
	for _, gone := range []string{"other00", "other05", "unit00"} {
		if exists(filepath.Join(dir, gone+".bc")) || exists(filepath.Join(dir, gone+".deps")) {
			t.Errorf("%s, among the least recently used, was kept", gone)
		}
	}
	if l, _ := readLedger(dir, ".bc"); l.files != 10 || l.bytes != 1000 || l.adds != 0 {
		t.Errorf("ledger after the scan: %+v, want 10 files of 1000 bytes", l)
	}
	for i := range rescanEvery - 1 {
		keep(fmt.Sprintf("z%03d", i), 0, Limits{})
	}
	if l, _ := readLedger(dir, ".bc"); l.adds != rescanEvery-1 || l.files != 10+rescanEvery-1 {
		t.Fatalf("ledger %+v, want %d entries counted", l, rescanEvery-1)
	}
	keep("zlast", 0, Limits{})
	if l, _ := readLedger(dir, ".bc"); l.adds != 0 || l.files != 10+rescanEvery {
		t.Errorf("ledger after %d entries: %+v, want a scan's: %d files, none counted since", rescanEvery, l, 10+rescanEvery)
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
