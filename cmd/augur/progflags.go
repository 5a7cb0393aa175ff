package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"augur/analyzer/exec/libc"
	"augur/analyzer/frontend/load"
	"augur/analyzer/frontend/resolve"
	"augur/analyzer/output/report"
	"augur/analyzer/settings"
	"augur/internal/safefile"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/build"
	"augur/analyzer/frontend/ir"
)

// programFlags are the flags of every command that builds and runs the
// program: compiler flags, the virtual file system, argv[0] and budgets.
type programFlags struct {
	// failed is set by load when the program could not be loaded: what
	// a JSON or SARIF report says in place of an analysis.
	failed *report.Error
	// build are the options load built the program with (a fix's
	// verification builds the changed copy with them).
	build              build.Options
	incs, defs, vfiles stringList
	undefs, includes   stringList
	isystem, cflags    stringList
	std                *string
	stdinFile          *string
	targetName         *string
	target             *target // the augur.toml target built, if any
	env                stringList
	clients            stringList
	argv0              *string
	// values are the command's settings (analyzer/settings): the budgets,
	// the seed and what an undefined call does, for every command; all of
	// them for analyze.
	values   *settings.Values
	complete *bool
	// sources are the files load built: those given and those it took
	// from the project to complete the program (resolved says which).
	sources  []string
	resolved *resolve.Result
	// start is when the command started: the time budget counts from it,
	// the build included.
	start  time.Time
	inputs map[string]uint64 // replayed input values (run --inputs)
	stdin  []byte            // replayed standard input
	files  map[string]string // replayed file contents
}

// programSettings are the settings every command that runs the program
// takes as flags (analyzer/settings); analyze takes all of them.
var programSettings = []string{"max-instructions", "timeout", "max-memory", "seed", "undefined", "preempt-accesses"}

// newCommand returns the flag set of a command that takes program files,
// with the program flags registered: over are the command's own defaults
// of settings (analyzer/settings.AddFlags), v receives their values.
func newCommand(name, usage string, v *settings.Values, over map[string]any) (*flag.FlagSet, *programFlags) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, usage)
		fs.PrintDefaults()
	}
	return fs, addProgramFlags(fs, v, over)
}

// parseFiles parses a command's arguments: flags, files and, after "--",
// the program's arguments, and resolves the augur.toml target they name
// (its sources become the files). code is non-zero on a usage error.
func parseFiles(fs *flag.FlagSet, p *programFlags, args []string) (files, progArgs []string, code int) {
	files, progArgs, err := splitArgs(fs, args)
	if err != nil {
		return nil, nil, 2
	}
	if len(files) == 0 && *p.targetName == "" {
		fs.Usage()
		return nil, nil, 2
	}
	p.target, files, err = resolveTarget(*p.targetName, files)
	if err != nil {
		fmt.Fprintf(os.Stderr, "augur: %v\n", err)
		return nil, nil, 2
	}
	return files, progArgs, 0
}

func addProgramFlags(fs *flag.FlagSet, v *settings.Values, over map[string]any) *programFlags {
	p := &programFlags{
		argv0:  fs.String("argv0", "", "argv[0] of the program (default: the first file's base name)"),
		values: v,
		complete: fs.Bool("complete", true, "complete the program from the C/C++ files under the first file's directory, as a linker would: "+
			"a file that defines a function or variable the program uses and defines nowhere is compiled in (false: the files given only; "+
			"an augur.toml target's sources are never completed)"),
		start: time.Now(),
	}
	settings.AddFlags(fs, v, over, programSettings...)
	fs.Var(&p.incs, "I", "add an include directory (repeatable)")
	fs.Var(&p.isystem, "isystem", "add a system include directory (repeatable)")
	fs.Var(&p.defs, "D", "define a macro (repeatable)")
	fs.Var(&p.undefs, "U", "undefine a macro (repeatable)")
	fs.Var(&p.includes, "include", "include this file before each source, as clang -include does (repeatable)")
	p.std = fs.String("std", "", "the language standard, as clang -std= takes it (c11, gnu99, c++17, ...)")
	fs.Var(&p.cflags, "cflag", "pass a compile flag to clang, e.g. --cflag=-fno-builtin (repeatable); only flags that change how the source is parsed are allowed, as in augur.toml")
	p.targetName = fs.String("target", "", "build the augur.toml target of this name (augur.toml here or above): its sources, compile flags and inputs; given files must be among its sources, and without --target the one target listing all given files is built")
	p.stdinFile = fs.String("stdin", "", "the program's standard input is this file's contents (run: instead of the terminal)")
	fs.Var(&p.env, "env", "set NAME=VALUE in the program's environment, or NAME to pass the host's value (repeatable); the program sees only augur's small default environment and these, never the host's")
	fs.Var(&p.clients, "client", "run a client program beside the program, as a test harness would run a client of a server: its sources, then its arguments, quoted as a shell quotes them, e.g. --client='client.c -p 11311' (repeatable); it starts when the program first waits, and the run ends when the program exits or every client has")
	fs.Var(&p.vfiles, "file", "make a real file readable by the program: PATH, or NAME=PATH to show it as NAME (repeatable); the program never touches the real disk")
	return p
}

// limits are the time and memory budgets of the command's executions.
func (p *programFlags) limits() vm.Limits {
	v := p.values
	lim := vm.Limits{MaxMemory: v.MaxMemory, TimeBudget: v.Timeout}
	if v.Timeout > 0 {
		lim.Deadline = p.start.Add(v.Timeout)
	}
	return lim
}

// context is the command's context: it ends at the time budget.
func (p *programFlags) context() (context.Context, context.CancelFunc) {
	if d := p.values.Timeout; d > 0 {
		return context.WithDeadline(context.Background(), p.start.Add(d))
	}
	return context.WithCancel(context.Background())
}

// load builds the program and the execution configuration. On failure it
// has printed the reason and returns the exit status to use: 1, or
// exitBudget when the time budget ran out while compiling.
func (p *programFlags) load(files, progArgs []string) (*ir.Program, vm.Config, int) {
	if p.values.MaxMemory > 0 {
		// The garbage collector works harder as the heap nears the budget,
		// so garbage (the buffers of the schedule before) does not pile
		// up past it (BenchmarkMemoryBudgetRSS).
		debug.SetMemoryLimit(int64(p.values.MaxMemory) + vm.GCMargin)
	}
	seeded, err := readSeedFiles(p.vfiles)
	if err != nil {
		fmt.Fprintf(os.Stderr, "augur: %v\n", err)
		return nil, vm.Config{}, 2
	}
	for name, data := range p.files {
		seeded[name] = []byte(data)
	}
	flags := p.compileFlags()
	var fileFlags map[string][]string
	if tg := p.target; tg != nil { // the target's first, the command's after (and over) them
		flags = append(append([]string(nil), tg.plan.Build.Flags...), flags...)
		fileFlags = tg.plan.Build.FileFlags
		for name, data := range tg.plan.Analyze.Run.Files {
			if _, ok := seeded[name]; !ok {
				seeded[name] = data
			}
		}
		if p.stdin == nil && *p.stdinFile == "" {
			p.stdin = tg.plan.Analyze.Run.Stdin
		}
	}
	if err := build.CheckFlags(flags); err != nil {
		fmt.Fprintf(os.Stderr, "augur: compile flags: %v\n", err)
		return nil, vm.Config{}, 2
	}
	if *p.stdinFile != "" {
		if p.stdin != nil {
			fmt.Fprintln(os.Stderr, "augur: --stdin and --inputs both give the standard input: give one")
			return nil, vm.Config{}, 2
		}
		data, err := safefile.Read(*p.stdinFile, safefile.Rules{Max: safefile.MaxInput})
		if err != nil {
			fmt.Fprintf(os.Stderr, "augur: --stdin: %v\n", err)
			return nil, vm.Config{}, 2
		}
		p.stdin = data
	}
	clients, err := load.ParseClients(p.clients, "")
	if err != nil {
		fmt.Fprintf(os.Stderr, "augur: --client: %v\n", err)
		return nil, vm.Config{}, 2
	}
	clientFiles, clientArgv := load.SplitClients(clients)
	if tg := p.target; tg != nil && len(clients) == 0 { // the target's, unless the command gives its own
		clientFiles, clientArgv = tg.plan.Build.Clients, tg.plan.Analyze.Run.Clients
	}
	ctx, cancel := p.context()
	defer cancel()
	p.build = build.Options{Flags: flags, FileFlags: fileFlags, Clients: clientFiles, MaxMemory: p.values.MaxMemory}
	var candidates []string
	if *p.complete && p.target == nil && len(files) > 0 {
		if dir, err := filepath.Abs(filepath.Dir(files[0])); err == nil {
			candidates = resolve.Walk(dir)
		}
	}
	loaded, err := load.Sources(ctx, files, p.build, candidates, libc.Modeled)
	if err != nil && ctx.Err() == context.DeadlineExceeded {
		msg := fmt.Sprintf("time budget of %s exhausted while compiling (raise --timeout)", p.values.Timeout)
		fmt.Fprintf(os.Stderr, "augur: %s\n", msg)
		p.failed = &report.Error{Stage: "load", Message: msg}
		return nil, vm.Config{}, exitBudget
	}
	if err != nil {
		p.failed = loadError(err)
		var ce *build.CompileError
		if errors.As(err, &ce) {
			fmt.Fprint(os.Stderr, compileOutput(err))
		} else {
			fmt.Fprintf(os.Stderr, "augur: %v\n", err)
		}
		return nil, vm.Config{}, 1
	}
	prog := loaded.Prog
	p.sources, p.resolved = loaded.Sources, loaded.Resolved
	env, err := p.environment()
	if err != nil {
		fmt.Fprintf(os.Stderr, "augur: --env: %v\n", err)
		return nil, vm.Config{}, 2
	}
	name := *p.argv0
	if name == "" {
		name = strings.TrimSuffix(filepath.Base(files[0]), filepath.Ext(files[0]))
	}
	if tg := p.target; tg != nil {
		targetArgs := tg.plan.Analyze.Run.Args
		if *p.argv0 == "" && len(targetArgs) > 0 {
			name = targetArgs[0]
		}
		if progArgs == nil && len(targetArgs) > 1 {
			progArgs = targetArgs[1:]
		}
	}
	cfg := vm.Config{
		Args:    append([]string{name}, progArgs...),
		Clients: clientArgv,
		Env:     env,
		Limits:  p.limits(),
		Files:   seeded,
		Stdin:   p.stdin,
		Inputs:  p.inputs,
	}
	p.values.Run(&cfg)
	return prog, cfg, 0
}

// compileFlags are the clang flags the command line gives, in the order
// clang would take them: include directories, macros, forced includes,
// the standard, then --cflag.
func (p *programFlags) compileFlags() []string {
	var flags []string
	for _, i := range p.incs {
		flags = append(flags, "-I"+i)
	}
	for _, i := range p.isystem {
		flags = append(flags, "-isystem", i)
	}
	for _, d := range p.defs {
		flags = append(flags, "-D"+d)
	}
	for _, u := range p.undefs {
		flags = append(flags, "-U"+u)
	}
	for _, f := range p.includes {
		flags = append(flags, "-include", f)
	}
	if *p.std != "" {
		flags = append(flags, "-std="+*p.std)
	}
	return append(flags, p.cflags...)
}

// environment is the program's environment: augur's default with the
// --env entries set; a bare NAME takes the host's value, by the user's
// explicit choice.
func (p *programFlags) environment() ([]string, error) {
	var extra []string
	if p.target != nil {
		extra = append(extra, p.target.t.Env...) // the target's, then the command's over them
	}
	for _, e := range p.env {
		if !strings.Contains(e, "=") {
			e += "=" + os.Getenv(e)
		}
		extra = append(extra, e)
	}
	return vm.Environment(extra)
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
		data, err := safefile.Read(path, safefile.Rules{Max: safefile.MaxInput})
		if err != nil {
			return nil, fmt.Errorf("--file %s: %w", spec, err)
		}
		out[name] = data
	}
	return out, nil
}

// loadError is the report's account of a program that could not be
// loaded: the compiler's diagnostics when it refused a source.
func loadError(err error) *report.Error {
	e := &report.Error{Stage: "load", Message: err.Error()}
	build.Split(err, func(ce *build.CompileError) {
		if !ce.Limit {
			e.Stage = "compile"
			e.Diagnostics = append(e.Diagnostics, ce.Diagnostics...)
		}
	}, func(error) {})
	return e
}

// compileOutput returns clang's own messages for every failed file.
func compileOutput(err error) string {
	var b strings.Builder
	build.Split(err, func(ce *build.CompileError) { b.WriteString(ce.Output) },
		func(e error) { fmt.Fprintf(&b, "augur: %v\n", e) })
	return b.String()
}

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
