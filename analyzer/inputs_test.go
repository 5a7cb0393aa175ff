package analyzer_test

import (
	"context"
	"slices"
	"testing"

	"augur/analyzer"
)

// Only a program whose own code reads standard input is run to see
// whether it reads the one it was not given: augur's runtime, linked
// whole, reads streams in every program (fgets, getline), the C++
// headers' stream buffers in every program that includes <iostream>, and
// a program that reads only its own files, or nothing, must not pay for
// a run before detection.
func TestReadsStdinLooksAtTheProgramsOwnCode(t *testing.T) {
	for path, want := range map[string]bool{
		"../testdata/recall/stdin_number.c":  true,  // scanf
		"../testdata/symex/sscanf_line.c":    true,  // fgets(..., stdin)
		"../testdata/run/wordcount.c":        true,  // getchar
		"../testdata/run/cpp_cin.cpp":        true,  // std::cin
		"../testdata/run/files.c":            false, // fscanf and fread of its own file
		"../testdata/run/cpp_containers.cpp": false, // <iostream>, output only
		"../testdata/budget/slow_analysis.c": false,
	} {
		if got := analyzer.ReadsStdin(mustLoad(t, path)); got != want {
			t.Errorf("%s: reads stdin %v, want %v", path, got, want)
		}
	}
}

// A program given no standard input that reads it is explored with a few
// symbolic bytes of it as well, and the report says so; the same program
// given a standard input is explored around that one only.
func TestUngivenStdinIsExplored(t *testing.T) {
	path := "../testdata/recall/stdin_number.c"
	for _, c := range []struct {
		stdin string
		want  string
	}{{"", "stdin (8 bytes)"}, {"7\n", "stdin (2 bytes)"}} {
		opts := options(path)
		opts.DetectOnly = true
		opts.Run.Stdin = []byte(c.stdin)
		res, err := analyzer.Analyze(context.Background(), mustLoad(t, path), opts, analyzer.Observer{})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, s := range res.SymbolicInputs {
			if s == c.want {
				n++
			}
		}
		if n != 1 {
			t.Errorf("stdin %q: symbolic inputs %q, want %q once", c.stdin, res.SymbolicInputs, c.want)
		}
		if len(res.Races) != 1 {
			t.Errorf("stdin %q: %d races, want the one a quota over 50 shows", c.stdin, len(res.Races))
		}
	}
}

// A program that takes arguments, run with none and given a standard
// input, has the input symbolic in both roots (its own, and the invented
// argument's, which may be the option that reads it): the report names
// each input once.
func TestEachSymbolicInputIsNamedOnce(t *testing.T) {
	path := "../testdata/recall/stdin_dash.c"
	opts := options(path)
	opts.DetectOnly = true
	opts.Run.Args = opts.Run.Args[:1]
	opts.Run.Stdin = []byte("70\n")
	res, err := analyzer.Analyze(context.Background(), mustLoad(t, path), opts, analyzer.Observer{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"stdin (3 bytes)", "argv[1] (2 bytes)"}; !slices.Equal(res.SymbolicInputs, want) {
		t.Errorf("symbolic inputs %q, want %q", res.SymbolicInputs, want)
	}
}

// The standard input a path read to its end is explored with that path's
// arguments, kept concrete: the first root explored the arguments
// already, and exploring them again with standard input would run each of
// its paths once more (a long program's whole workload, once per option).
func TestUngivenStdinIsExploredWithTheArgumentsThatReadIt(t *testing.T) {
	path := "../testdata/recall/stdin_dash.c"
	opts := options(path)
	opts.DetectOnly = true
	opts.Run.Args = append(opts.Run.Args, "limits.txt")
	res, err := analyzer.Analyze(context.Background(), mustLoad(t, path), opts, analyzer.Observer{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"argv[1] (first 8 of 10 bytes)", "stdin (8 bytes)"}; !slices.Equal(res.SymbolicInputs, want) {
		t.Errorf("symbolic inputs %q, want %q", res.SymbolicInputs, want)
	}
	withStdin := 0
	for _, p := range res.Exploration.Paths {
		if p.Inputs.Stdin == "" {
			continue
		}
		withStdin++
		if !slices.Equal(p.Inputs.Args, []string{"-"}) {
			t.Errorf("a path with standard input %q has arguments %q, want the one that read it, -", p.Inputs.Stdin, p.Inputs.Args)
		}
	}
	if withStdin == 0 {
		t.Error("no path was explored with standard input")
	}
	if len(res.Races) != 1 {
		t.Errorf("%d races, want the one a limit over 50 read from standard input shows", len(res.Races))
	}
}
