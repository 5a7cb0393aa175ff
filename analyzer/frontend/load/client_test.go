package load

import (
	"slices"
	"testing"
)

// A client line's words are split as a shell splits them, quotes and
// backslashes included, and a line a shell would refuse is an error.
func TestParseClientQuoting(t *testing.T) {
	c, err := ParseClient(`client.c -m "hello world" 'a "b"' c\ d "x\"y" ''`, "/ws")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"client", "-m", "hello world", `a "b"`, "c d", `x"y`, ""}
	if !slices.Equal(c.Argv, want) || !slices.Equal(c.Files, []string{"/ws/client.c"}) {
		t.Errorf("files %q argv %q, want [/ws/client.c] %q", c.Files, c.Argv, want)
	}
	c, err = ParseClient(`'my client.c' -p 1`, "/ws")
	if err != nil || !slices.Equal(c.Files, []string{"/ws/my client.c"}) || !slices.Equal(c.Argv, []string{"my client", "-p", "1"}) {
		t.Errorf("a quoted file name: files %q argv %q, %v", c.Files, c.Argv, err)
	}
	for _, bad := range []string{`client.c "open`, `client.c 'open`, `client.c -p 1 | tee log`} {
		if _, err := ParseClient(bad, ""); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
