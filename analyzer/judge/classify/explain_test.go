package classify

import "testing"

func TestMentionsPlace(t *testing.T) {
	for _, c := range []struct {
		msg, at string
		want    bool
	}{
		{"double free, first freed at a.c:12:3", "a.c:12", true},
		{"double free, first freed at a.c:12", "a.c:12", true},
		{"double free, first freed at a.c:123:3", "a.c:12", false},
		{"first at a.c:123, then a.c:12, done", "a.c:12", true},
		{"null pointer dereference", "a.c:12", false},
	} {
		if got := mentions(c.msg, c.at); got != c.want {
			t.Errorf("mentions(%q, %q) = %v", c.msg, c.at, got)
		}
	}
}
