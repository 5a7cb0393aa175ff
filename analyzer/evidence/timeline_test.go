package evidence

import "testing"

func TestWithoutComment(t *testing.T) {
	for in, want := range map[string]string{
		`free(buf); // race: dfree spec-violated`: `free(buf);`,
		`printf("a // b\n", x); // note`:          `printf("a // b\n", x);`,
		`s = "\"//"; // x`:                        `s = "\"//";`,
		`x = 1;`:                                  `x = 1;`,
	} {
		if got := withoutComment(in); got != want {
			t.Errorf("withoutComment(%q) = %q, want %q", in, got, want)
		}
	}
}
