package symex

import (
	"slices"
	"strings"
	"testing"

	"augur/analyzer/exec/vm"
)

// The inputs made symbolic by default: the leading bytes of each
// argument (an empty one gets ShortArg) and of standard input; a
// streamed standard input stays concrete; the description says what.
func TestAround(t *testing.T) {
	cfg := Around(vm.Config{Args: []string{"prog", "-v", "", "a-long-file-name.txt"}, Stdin: []byte("GET /\n")})
	if want := []int{2, ShortArg, AroundBytes}; !slices.Equal(cfg.SymArgs, want) {
		t.Errorf("sym args %v, want %v", cfg.SymArgs, want)
	}
	if cfg.SymStdin != 6 {
		t.Errorf("sym stdin %d, want 6", cfg.SymStdin)
	}
	want := []string{"argv[1] (2 bytes)", "argv[2] (2 bytes)", "argv[3] (first 8 of 20 bytes)", "stdin (6 bytes)"}
	if got := Describe(cfg); !slices.Equal(got, want) {
		t.Errorf("described as %q, want %q", got, want)
	}
	if given := Around(vm.Config{Args: []string{"prog"}, Stdin: []byte("x")}); given.SymStdin != 1 {
		t.Errorf("a program given standard input has %d symbolic bytes of it", given.SymStdin)
	}
	if streamed := Around(vm.Config{Args: []string{"prog"}, Stdin: []byte("x"), StdinReader: strings.NewReader("x")}); Marked(streamed) {
		t.Errorf("a streamed standard input is symbolic")
	}
	if none := Around(vm.Config{Args: []string{"prog"}}); Marked(none) {
		t.Errorf("a program given nothing has symbolic inputs: %+v", none.SymArgs)
	}
	if inv := Around(Invented(vm.Config{Args: []string{"prog"}})); !slices.Equal(inv.SymArgs, []int{ShortArg}) || len(inv.Args) != 2 {
		t.Errorf("the invented argument: args %q, sym %v", inv.Args, inv.SymArgs)
	}
}
