package main

import (
	"flag"
	"fmt"
	"os"

	"augur/analyzer"
	"augur/analyzer/build"
	"augur/analyzer/evidence"
)

// replayCmd re-executes a race's evidence and prints the interleaving.
func replayCmd(args []string) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprintln(os.Stderr, "usage: augur replay EVIDENCE") }
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	ev, err := evidence.Read(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(os.Stderr, "augur: %v\n", err)
		return 1
	}
	prog, err := analyzer.LoadProgram(ev.Program.Files, build.Options{})
	if err != nil {
		fmt.Fprintf(os.Stderr, "augur: %v\n", err)
		return 1
	}
	tr := evidence.Replay(prog, ev)
	cwd, _ := os.Getwd()
	tr.Render(os.Stdout, ev, cwd, evidence.Text)
	if !tr.Reproduced {
		return 1
	}
	return 0
}
