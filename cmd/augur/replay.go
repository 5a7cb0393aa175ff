package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/build"
	"augur/analyzer/frontend/load"
	"augur/analyzer/output/evidence"
	"augur/internal/sysmem"
)

// replayCmd re-executes a race's evidence and prints the interleaving.
func replayCmd(args []string) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: augur replay [flags] EVIDENCE")
		fs.PrintDefaults()
	}
	timeout := &flagDuration{5 * time.Minute}
	maxMemory := &flagSize{sysmem.DefaultBudget()}
	fs.Var(timeout, "timeout", "wall-time budget of the replay, compiling included (0: no limit)")
	fs.Var(maxMemory, "max-memory", "memory budget of the replayed execution, e.g. 512MiB (0: no limit)")
	format := fs.String("format", "text", "text (a transcript), or html or svg: the interleaving drawn as one lane per thread")
	out := fs.String("o", "", "write the transcript or picture to this file instead of standard output")
	start := time.Now()
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	if *format != "text" && *format != evidence.HTML && *format != evidence.SVG {
		fmt.Fprintf(os.Stderr, "augur: unknown format %q (want text, html or svg)\n", *format)
		return 2
	}
	ev, err := evidence.Read(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(os.Stderr, "augur: %v\n", err)
		return 1
	}
	lim := vm.Limits{MaxMemory: maxMemory.n, TimeBudget: timeout.d}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if timeout.d > 0 {
		lim.Deadline = start.Add(timeout.d)
		ctx, cancel = context.WithDeadline(ctx, lim.Deadline)
		defer cancel()
	}
	cwd, _ := os.Getwd()
	if *out != "" {
		*out, _ = filepath.Abs(*out) // before moving to the program's directory
	}
	bopts := build.Options{Flags: ev.Program.Flags, FileFlags: ev.Program.FileFlags, Clients: ev.Program.Clients, MaxMemory: maxMemory.n}
	if err := checkEvidenceFlags(bopts); err != nil {
		fmt.Fprintf(os.Stderr, "augur: %s: %v\n", fs.Arg(0), err)
		return 1
	}
	files := ev.Program.Files
	if ev.Program.Dir != "" && os.Chdir(ev.Program.Dir) == nil && len(ev.Program.Named) == len(files) {
		// Compile the files by the names the analysis used: the program
		// prints them (__FILE__, assert messages). Relative paths in the
		// compile flags are relative to that directory too.
		files = ev.Program.Named
	}
	loaded, err := load.Sources(ctx, files, bopts, nil, nil)
	if err != nil {
		fmt.Fprintf(os.Stderr, "augur: %v\n", err)
		return 1
	}
	tr := evidence.Replay(loaded.Prog, ev, lim)
	w := os.Stdout
	if *out != "" {
		f, err := createOutput(*out)
		if err != nil {
			return 1
		}
		defer f.Close()
		w = f
	}
	if *format == "text" {
		tr.Render(w, ev, cwd, evidence.Text)
	} else if err := tr.Timeline(w, ev, cwd, *format); err != nil {
		fmt.Fprintf(os.Stderr, "augur: %v\n", err)
		return 1
	}
	if !tr.Reproduced {
		return 1
	}
	return 0
}

// createOutput creates the file -o names, saying why on standard error
// when it cannot.
func createOutput(path string) (*os.File, error) {
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "augur: %v\n", err)
	}
	return f, err
}

// checkEvidenceFlags checks the compile flags an evidence file asks for
// against the allow-list augur.toml's flags pass: evidence is input, and
// may come from elsewhere.
func checkEvidenceFlags(b build.Options) error {
	if err := build.CheckFlags(b.Flags); err != nil {
		return fmt.Errorf("compile flags: %w", err)
	}
	for file, flags := range b.FileFlags {
		if err := build.CheckFlags(flags); err != nil {
			return fmt.Errorf("compile flags of %s: %w", file, err)
		}
	}
	return nil
}
