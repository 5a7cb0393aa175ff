package symex

import (
	"fmt"

	"augur/analyzer/exec/vm"
)

// When an analysis names no symbolic input (no --sym-* flag), augur makes
// the inputs it was given symbolic around their values, as Portend+ did
// with two symbolic inputs (shared/papers/000_*, section 6): the leading
// bytes of every command-line argument and of standard input (a few
// invented ones when the program reads a standard input it was not
// given, InventedStdin). The concrete run is the first path, the seed of
// every variable being the byte given; the rest of a long input (a file
// name's tail, a large standard input) stays concrete, so a program that
// compresses a megabyte reads a megabyte with only its first bytes free.

const (
	// AroundBytes is how many leading bytes of each argument and of
	// standard input become symbolic.
	AroundBytes = 8
	// ShortArg is the size of the symbolic argument of a run that was
	// given none (Invented).
	ShortArg = 2
)

// Around returns cfg with its given inputs symbolic around their values:
// the first AroundBytes bytes of each argument after argv[0] (ShortArg
// bytes of an empty one) and of standard input. Other inputs of cfg are
// kept; a run whose standard input is streamed (StdinReader) keeps it
// concrete.
func Around(cfg vm.Config) vm.Config {
	cfg.SymArgs = nil
	if len(cfg.Args) > 1 {
		for _, a := range cfg.Args[1:] {
			n := min(len(a), AroundBytes)
			if n == 0 {
				n = ShortArg
			}
			cfg.SymArgs = append(cfg.SymArgs, n)
		}
	}
	cfg.SymStdin = 0
	if cfg.StdinReader == nil {
		cfg.SymStdin = min(len(cfg.Stdin), AroundBytes)
	}
	return cfg
}

// Invented returns cfg run with one argument more than it was given, an
// empty one, for Around to make symbolic: a program run without arguments
// is explored with one short argument too, since most take their options
// there.
func Invented(cfg vm.Config) vm.Config {
	args := append([]string(nil), cfg.Args...)
	if len(args) == 0 {
		args = []string{"a.out"}
	}
	cfg.Args = append(args, "")
	return cfg
}

// InventedStdin returns cfg, made by Around, run with args (argv after
// argv[0], the arguments of a path that read its standard input to the
// end) kept concrete and AroundBytes symbolic bytes of standard input,
// seeded with zeros: a program run with no standard input that reads it
// (a number with scanf, a command line with fgets) found it empty on that
// path, and is explored with a short one too. The arguments were explored
// already: making them symbolic again would run every path of the own
// root once more (pigz's five whole compressions). The path its seed
// takes sees NUL bytes, not the end of input.
func InventedStdin(cfg vm.Config, args []string) vm.Config {
	argv0 := "a.out"
	if len(cfg.Args) > 0 {
		argv0 = cfg.Args[0]
	}
	cfg.Args = append([]string{argv0}, args...)
	cfg.SymArgs = nil
	cfg.SymStdin = AroundBytes
	return cfg
}

// Marked reports whether cfg makes some input symbolic.
func Marked(cfg vm.Config) bool {
	return len(cfg.SymArgs) > 0 || cfg.SymStdin > 0 || len(cfg.SymFiles) > 0
}

// Describe lists cfg's symbolic inputs in a report's words: "argv[1] (2
// bytes)", "stdin (first 8 of 120 bytes)".
func Describe(cfg vm.Config) []string {
	var out []string
	for i, n := range cfg.SymArgs {
		given := 0
		if i+1 < len(cfg.Args) {
			given = len(cfg.Args[i+1])
		}
		out = append(out, fmt.Sprintf("argv[%d] (%s)", i+1, leading(n, given)))
	}
	if cfg.SymStdin > 0 {
		out = append(out, fmt.Sprintf("stdin (%s)", leading(cfg.SymStdin, len(cfg.Stdin))))
	}
	for name, n := range cfg.SymFiles {
		out = append(out, fmt.Sprintf("file %s (%s)", name, leading(n, len(cfg.Files[name]))))
	}
	return out
}

// leading says how many bytes of an input of given bytes are symbolic.
func leading(n, given int) string {
	if given > n {
		return fmt.Sprintf("first %d of %d bytes", n, given)
	}
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// Merge joins the explorations of several roots (Around's and
// Invented's) into one result, a's paths first. The paths' terms belong
// to their own exploration's builder: Symbolic is a's.
func Merge(a, b *Result) *Result {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	out := &Result{Paths: append(append([]*Path(nil), a.Paths...), b.Paths...),
		Failures: append(append([]*Path(nil), a.Failures...), b.Failures...), Symbolic: a.Symbolic, Stats: a.Stats}
	s, t := &out.Stats, b.Stats
	s.Paths += t.Paths
	s.Pruned += t.Pruned
	s.Forks += t.Forks
	s.ForksRefused += t.ForksRefused
	s.Queries += t.Queries
	s.Z3Calls += t.Z3Calls
	s.CacheHits += t.CacheHits
	s.ModelHits += t.ModelHits
	s.SolverTimeouts += t.SolverTimeouts
	s.FloatConcretized += t.FloatConcretized
	s.PointerTargetsGivenUp += t.PointerTargetsGivenUp
	s.Pinned += t.Pinned
	s.WeakForks += t.WeakForks
	s.ScheduleForks += t.ScheduleForks
	s.StaleReads += t.StaleReads
	s.Instructions += t.Instructions
	if s.PathBudget == 0 {
		s.PathBudget = t.PathBudget
	}
	if s.PathsBudget == 0 {
		s.PathsBudget = t.PathsBudget
	}
	s.Elapsed += t.Elapsed
	if s.StoppedBy == "" {
		s.StoppedBy = t.StoppedBy
	}
	s.PeakLive = max(s.PeakLive, t.PeakLive)
	s.PeakHeap = max(s.PeakHeap, t.PeakHeap)
	return out
}
