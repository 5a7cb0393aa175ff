package classify

import "testing"

func TestFileNamesAreSaidAsTheProgramNamedThem(t *testing.T) {
	for _, c := range []struct{ path, want string }{
		{"/report.txt", "report.txt"},
		{"/out/a.txt", "out/a.txt"},
		{"/\x01\x01xt", `"\x01\x01xt"`}, // a name made from an explored argument
		{"/", "/"},
	} {
		if got := (File{Path: c.path}).Name(); got != c.want {
			t.Errorf("File{%q}.Name() = %s, want %s", c.path, got, c.want)
		}
	}
	fs := []File{{Path: "/a"}, {Path: "/b"}, {Path: "/c"}, {Path: "/d"}}
	for n, want := range map[int]string{1: "a", 2: "a and b", 3: "a, b and c", 4: "a, b and 2 more files"} {
		if got := FileNames(fs[:n]); got != want {
			t.Errorf("FileNames of %d = %q, want %q", n, got, want)
		}
	}
}
