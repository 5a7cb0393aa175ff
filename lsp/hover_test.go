package lsp

import "testing"

func TestOutputDifferenceQuotesTheFirstDifferingLine(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		{"Making pool\nAdding tasks\nTask 7\nTask 8\n", "Making pool\nAdding tasks\nTask 8\nTask 7\n",
			"at line 3 of the output, one order prints `Task 7`, the other `Task 8` (both after `Adding tasks`)"},
		{"total 3\n", "total 3\nwarning: late\n", "at line 2 of the output, one order prints nothing more, the other `warning: late` (both after `total 3`)"},
		{"a\n", "b\n", "at line 1 of the output, one order prints `a`, the other `b`"},
	} {
		if got := outputDifference(c.a, c.b); got != c.want {
			t.Errorf("outputDifference(%q, %q) =\n%s\nwant\n%s", c.a, c.b, got, c.want)
		}
	}
}
