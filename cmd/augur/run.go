package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"augur/analyzer"
	"augur/analyzer/build"
	"augur/analyzer/sched"
	"augur/analyzer/vm"
)

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, " ") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// splitArgs parses flags interleaved with file names and returns the files
// and the program arguments after "--".
func splitArgs(fs *flag.FlagSet, args []string) (files, progArgs []string, err error) {
	for {
		if err := fs.Parse(args); err != nil {
			return nil, nil, err
		}
		rest := fs.Args()
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			return files, rest, nil
		}
		if len(rest) == 0 {
			return files, nil, nil
		}
		files = append(files, rest[0])
		args = rest[1:]
	}
}

func runCmd(args []string) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: augur run [flags] FILES... [-- ARGS...]")
		fs.PrintDefaults()
	}
	seed := fs.Uint64("seed", 1, "seed of the random schedule")
	maxInsts := fs.Uint64("max-instructions", 0, "stop after this many instructions (0: no limit)")
	timeout := fs.Duration("timeout", 0, "stop after this much wall time (0: no limit)")
	schedule := fs.String("schedule", "round-robin", "thread schedule: round-robin or random")
	traceOut := fs.String("trace", "", "write the schedule trace to this file")
	replay := fs.String("replay", "", "follow the schedule trace in this file")
	preemptAccesses := fs.Bool("preempt-accesses", false, "also switch threads at memory accesses other threads can reach")
	argv0 := fs.String("argv0", "", "argv[0] of the program (default: the first file's base name)")
	var incs, defs, vfiles stringList
	fs.Var(&vfiles, "file", "make a real file readable by the program: PATH, or NAME=PATH to show it as NAME (repeatable); the program never touches the real disk")
	fs.Var(&incs, "I", "add an include directory (repeatable)")
	fs.Var(&defs, "D", "define a macro (repeatable)")
	files, progArgs, err := splitArgs(fs, args)
	if err != nil {
		return 2
	}
	if len(files) == 0 {
		fs.Usage()
		return 2
	}
	var policy sched.Policy
	switch {
	case *replay != "":
		tr, err := sched.ReadFile(*replay)
		if err != nil {
			fmt.Fprintf(os.Stderr, "augur: %v\n", err)
			return 2
		}
		policy = &sched.Replay{Trace: tr}
	case *schedule == "round-robin":
		policy = sched.RoundRobin{}
	case *schedule == "random":
		policy = sched.NewRandom(*seed)
	default:
		fmt.Fprintf(os.Stderr, "augur: unknown schedule %q (want round-robin or random)\n", *schedule)
		return 2
	}
	var flags []string
	for _, i := range incs {
		flags = append(flags, "-I"+i)
	}
	for _, d := range defs {
		flags = append(flags, "-D"+d)
	}
	seeded, err := readSeedFiles(vfiles)
	if err != nil {
		fmt.Fprintf(os.Stderr, "augur: %v\n", err)
		return 2
	}
	prog, err := analyzer.LoadProgram(files, build.Options{Flags: flags})
	if err != nil {
		var ce *build.CompileError
		if errors.As(err, &ce) {
			fmt.Fprint(os.Stderr, compileOutput(err))
		} else {
			fmt.Fprintf(os.Stderr, "augur: %v\n", err)
		}
		return 1
	}
	name := *argv0
	if name == "" {
		name = strings.TrimSuffix(filepath.Base(files[0]), filepath.Ext(files[0]))
	}
	cfg := vm.Config{
		Args:               append([]string{name}, progArgs...),
		Env:                os.Environ(),
		StdinReader:        os.Stdin,
		Stdout:             os.Stdout,
		Stderr:             os.Stderr,
		StdoutLineBuffered: isTerminal(os.Stdout),
		Policy:             policy,
		Seed:               *seed,
		MaxInstructions:    *maxInsts,
		Timeout:            *timeout,
		Files:              seeded,
		PreemptAccesses:    *preemptAccesses,
	}
	m, err := vm.New(prog, cfg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "augur: %v\n", err)
		return 1
	}
	res := m.Run()
	if *traceOut != "" {
		if err := res.Trace.WriteFile(*traceOut); err != nil {
			fmt.Fprintf(os.Stderr, "augur: write trace: %v\n", err)
		}
	}
	if res.Term.Kind != vm.TermExit {
		fmt.Fprint(os.Stderr, res.Term.Report())
	}
	return res.Term.ExitCode()
}

// readSeedFiles reads the files named by --file into the virtual file
// system's initial contents.
func readSeedFiles(specs []string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, spec := range specs {
		name, path, ok := strings.Cut(spec, "=")
		if !ok {
			path = name
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("--file %s: %w", spec, err)
		}
		out[name] = data
	}
	return out, nil
}

// compileOutput returns clang's own messages for every failed file.
func compileOutput(err error) string {
	var b strings.Builder
	var walk func(error)
	walk = func(e error) {
		var ce *build.CompileError
		if joined, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range joined.Unwrap() {
				walk(x)
			}
			return
		}
		if errors.As(e, &ce) {
			b.WriteString(ce.Output)
			return
		}
		fmt.Fprintf(&b, "augur: %v\n", e)
	}
	walk(err)
	return b.String()
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
