package lsp

import "testing"

func TestIsExpression(t *testing.T) {
	for e, want := range map[string]bool{
		"book->entries": true,
		"s.arr[i + 1]":  true,
		"total":         true,
		"heap object allocated at a.c:3 (16 bytes, offset 0)": false,
		"free(buf)": false,
		"x = 1":     false,
		"a[i] = 2;": false,
		"":          false,
	} {
		if got := isExpression(e); got != want {
			t.Errorf("isExpression(%q) = %v, want %v", e, got, want)
		}
	}
	for o, want := range map[string]string{"total": "total", "stats+8": "stats", "thread-local tls": "tls",
		"heap object allocated at a.c:3 (16 bytes, offset 0)": ""} {
		got := ""
		if m := globalName.FindStringSubmatch(o); m != nil {
			got = m[1]
		}
		if got != want {
			t.Errorf("globalName(%q) = %q, want %q", o, got, want)
		}
	}
}
