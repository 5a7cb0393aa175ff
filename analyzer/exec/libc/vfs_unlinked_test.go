package libc

import "testing"

// TestUnlinkedFileLivesUntilClosed checks that a file removed while a
// descriptor holds it keeps its contents for the descriptor under a name
// no program can spell, is no output of the program, leaves its name
// free, and is gone once the descriptor is closed: the table holds what
// the program still holds.
func TestUnlinkedFileLivesUntilClosed(t *testing.T) {
	ft := &fileTable{fs: map[string]*contents{"/tmp/s": newContents([]byte("scratch"))},
		byAddr: map[uint64]*vfile{}, byFD: map[int]*vfile{}, dirs: map[string]bool{"/tmp": true},
		given: map[string][]byte{}}
	f := &vfile{fd: 3, path: "/tmp/s", read: true, write: true, openDesc: &openDesc{}}
	ft.byFD[3] = f
	ft.orphan("/tmp/s")
	ft.remove("/tmp/s")
	if ft.exists("/tmp/s") {
		t.Fatal("the name still exists after unlink")
	}
	if !isUnlinked(f.path) {
		t.Fatalf("the descriptor names %q, want an unlinked name", f.path)
	}
	if got := string(ft.fs[f.path].bytes()); got != "scratch" {
		t.Errorf("the descriptor's file reads %q", got)
	}
	if n := ft.nlink(f.path); n != 0 {
		t.Errorf("nlink = %d, want 0", n)
	}
	ft.fs["/out"] = newContents([]byte("x"))
	if w := ft.written(); len(w) != 1 || w[0].Path != "/out" {
		t.Errorf("written = %+v, want /out alone", w)
	}
	ft.closeFD(nil, 3)
	for p := range ft.fs {
		if isUnlinked(p) {
			t.Errorf("%q is still kept after its last descriptor closed", p)
		}
	}
	if len(ft.inodes) != 0 || len(ft.perms) != 0 {
		t.Errorf("inodes %v and perms %v kept for the closed file", ft.inodes, ft.perms)
	}
}
