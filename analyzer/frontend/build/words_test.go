package build

import (
	"slices"
	"testing"
)

// A command line splits as a shell splits it; what a shell would run
// another command for, or refuse, is an error.
func TestSplitCommand(t *testing.T) {
	t.Setenv("AUGUR_WORDS_TEST", "v")
	for line, want := range map[string][]string{
		`cc -DX="a b" -I'/p q' c\ d`:     {"cc", "-DX=a b", "-I/p q", "c d"},
		`client.c '' "" 'a "b"' "x\"y"`:  {"client.c", "", "", `a "b"`, `x"y`},
		"a\tb\nc":                        {"a", "b", "c"},
		`-D$AUGUR_WORDS_TEST '$AUGUR_W'`: {"-Dv", "$AUGUR_W"},
	} {
		got, err := SplitCommand(line)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: %q, %v; want %q", line, got, err, want)
		}
	}
	for _, bad := range []string{`cc "open`, `cc 'open`, `cc a.c | tee log`, `cc a.c; rm x`, `cc $(echo a.c)`, `cc > out`} {
		if got, err := SplitCommand(bad); err == nil {
			t.Errorf("%s: %q, want an error", bad, got)
		}
	}
}
