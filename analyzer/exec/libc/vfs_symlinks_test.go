package libc

import "testing"

// TestLookupWalksLinksAsTheKernel checks the name walk through symbolic
// links (lookup): a relative text is read in its link's directory, ".."
// after a link goes up from where it led, the last name is followed or
// not as asked (but for one followed by "/" or "/."), a chain of links that
// never ends is loopName (ELOOP), and a fork keeps the links apart from
// the table it was forked from.
func TestLookupWalksLinksAsTheKernel(t *testing.T) {
	ft := &fileTable{fs: map[string]*contents{}, byAddr: map[uint64]*vfile{}, byFD: map[int]*vfile{},
		dirs:     map[string]bool{"/tmp": true, "/srv": true, "/srv/data": true, "/srv/data/2026": true},
		stdFiles: [3]*vfile{{openDesc: &openDesc{}}, {openDesc: &openDesc{}}, {openDesc: &openDesc{}}}}
	if got := ft.lookup("/srv", "x/../y", true); got != "/srv/y" {
		t.Errorf("without links: %q, want vpath's /srv/y", got)
	}
	for _, l := range [][2]string{
		{"data/2026", "/srv/latest"}, {"/srv/data", "/abs"}, {"b", "/tmp/a"}, {"a", "/tmp/b"},
	} {
		if errno := ft.symlink(l[0], l[1]); errno != 0 {
			t.Fatalf("symlink %s %s: errno %d", l[0], l[1], errno)
		}
	}
	if errno := ft.symlink("x", "/srv/latest"); errno != 17 {
		t.Errorf("symlink over a link: errno %d, want EEXIST", errno)
	}
	for _, c := range []struct {
		dir, name string
		follow    bool
		want      string
	}{
		{"/", "/srv/latest/f", true, "/srv/data/2026/f"},
		{"/srv", "latest", true, "/srv/data/2026"},
		{"/srv", "latest", false, "/srv/latest"},
		{"/srv", "latest/", false, "/srv/data/2026"},
		{"/srv", "latest/.", false, "/srv/data/2026"},
		{"/srv", "latest/../g", true, "/srv/data/g"},
		{"/", "abs/2026/./f", false, "/srv/data/2026/f"},
		{"/", "/tmp/a", false, "/tmp/a"},
		{"/", "/tmp/a", true, loopName},
		{"/", "/tmp/a/f", false, loopName},
	} {
		if got := ft.lookup(c.dir, c.name, c.follow); got != c.want {
			t.Errorf("lookup(%q, %q, %v) = %q, want %q", c.dir, c.name, c.follow, got, c.want)
		}
	}
	if errno := ft.absentErrno(loopName); errno != eLoop {
		t.Errorf("absentErrno(loopName) = %d, want ELOOP", errno)
	}
	c := ft.fork(nil)
	c.remove("/srv/latest")
	if !ft.isLink("/srv/latest") || c.isLink("/srv/latest") {
		t.Error("removing a link in a fork reached the table it was forked from, or did not remove it")
	}
}
