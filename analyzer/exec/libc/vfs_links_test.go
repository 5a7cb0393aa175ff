package libc

import "testing"

// TestForkKeepsHardLinks checks that a fork of the file table (a
// snapshot an analysis resumes from) keeps two names of one file one
// file: a write through one name in the fork is read through the other
// there, and neither name changes in the table forked from.
func TestForkKeepsHardLinks(t *testing.T) {
	ft := &fileTable{fs: map[string]*contents{"/tmp/a": newContents([]byte("before"))}, fsSym: nil,
		byAddr: map[uint64]*vfile{}, byFD: map[int]*vfile{}, dirs: map[string]bool{"/tmp": true},
		stdFiles: [3]*vfile{{openDesc: &openDesc{}}, {openDesc: &openDesc{}}, {openDesc: &openDesc{}}}}
	if errno := ft.link("/tmp/a", "/tmp/b"); errno != 0 {
		t.Fatalf("link: errno %d", errno)
	}
	if errno := ft.link("/tmp/a", "/tmp/b"); errno == 0 {
		t.Fatal("a second link to a name in use succeeded")
	}
	c := ft.fork(nil)
	c.store("/tmp/a", 0, []byte("AFTER!"))
	if got := string(c.fs["/tmp/b"].bytes()); got != "AFTER!" {
		t.Errorf("the fork's other name reads %q, want the write through the first", got)
	}
	for _, p := range []string{"/tmp/a", "/tmp/b"} {
		if got := string(ft.fs[p].bytes()); got != "before" {
			t.Errorf("the original's %s reads %q after the fork's write", p, got)
		}
	}
	if n := c.nlink("/tmp/b"); n != 2 {
		t.Errorf("nlink = %d, want 2", n)
	}
	c.truncateName("/tmp/b")
	if got := c.fs["/tmp/a"].len(); got != 0 {
		t.Errorf("a truncation through one name left %d bytes under the other", got)
	}
	c.remove("/tmp/a")
	if n := c.nlink("/tmp/b"); n != 1 {
		t.Errorf("nlink after unlinking the other name = %d, want 1", n)
	}
}
