package main

import (
	"encoding/json"
	"fmt"
	"os"

	"augur/analyzer"
	"augur/analyzer/settings"
	"augur/internal/safefile"

	"augur/analyzer/output/evidence"
	"augur/analyzer/output/report"

	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/sched"
	"augur/analyzer/exec/vm"
)

func runCmd(args []string) int {
	// A run is one execution: no instruction budget unless given.
	var values settings.Values
	fs, pf := newCommand("run", "usage: augur run [flags] FILES... [-- ARGS...]", &values,
		map[string]any{"timeout": "5m", "max-instructions": int64(0)})
	schedule := fs.String("schedule", sched.QuantumName, "thread schedule: quantum (round robin that does not switch after a lock taken without waiting), round-robin, random or pct (random and pct follow --seed)")
	traceOut := fs.String("trace", "", "write the schedule trace to this file")
	replay := fs.String("replay", "", "follow the schedule trace in this file")
	inputsFile := fs.String("inputs", "", "replay generated inputs (a failure's inputs file from augur analyze)")
	files, progArgs, code := parseFiles(fs, pf, args)
	if code != 0 {
		return code
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
	default:
		p, err := sched.New(*schedule, values.Seed)
		if err != nil {
			fmt.Fprintf(os.Stderr, "augur: %v\n", err)
			return 2
		}
		policy = p
	}
	if *inputsFile != "" {
		in, err := readInputs(*inputsFile)
		if err != nil {
			fmt.Fprintf(os.Stderr, "augur: %v\n", err)
			return 2
		}
		if progArgs == nil {
			progArgs = in.Args
		}
		pf.inputs = in.Vars
		pf.stdin = []byte(in.Stdin)
		pf.files = in.Files
	}
	prog, cfg, code := pf.load(files, progArgs)
	if code == exitBudget {
		return vm.ExitBudget // a budget stopped it, as it would have stopped the program
	}
	if code != 0 {
		return code
	}
	if pf.stdin != nil {
		cfg.Stdin = pf.stdin // --stdin, or replayed input, instead of the real stdin
	} else {
		cfg.StdinReader = os.Stdin
	}
	cfg.Stdout, cfg.Stderr = os.Stdout, os.Stderr
	cfg.StdoutLineBuffered = isTerminal(os.Stdout)
	cfg.Policy = policy
	cfg.MaxOutput = -1 // the output goes to the terminal as it is flushed; nothing needs it kept
	cfg.Models = libc.Models()
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
		if flag := report.BudgetFlags[res.Term.Budget.String()]; res.Term.Kind == vm.TermBudget && flag != "" {
			fmt.Fprintf(os.Stderr, "  (raise %s to give the program more)\n", flag)
		}
	}
	cwd, _ := os.Getwd()
	if fs := analyzer.HostFiles(res.Missing, cfg.Files, cwd); len(fs) > 0 {
		fmt.Fprintf(os.Stderr, "augur: %s\n", report.FilesNotGivenText(report.FilesNotGiven(fs, cwd)))
	}
	return res.Term.ExitCode()
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// readInputs loads the inputs of a failure from a file augur analyze
// --evidence-dir wrote: the failure's evidence (its inputs, without the
// schedule: augur replay follows that), or an inputs file.
func readInputs(path string) (*report.Inputs, error) {
	data, err := safefile.Read(path, safefile.Rules{Max: safefile.MaxConfig})
	if err != nil {
		return nil, fmt.Errorf("read inputs: %w", err)
	}
	if ev, err := evidence.Decode(data); err == nil {
		in := ev.Inputs
		return &report.Inputs{Args: in.Argv[1:], Stdin: in.Stdin, Files: in.Files, Vars: in.Vars}, nil
	}
	var in report.Inputs
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, fmt.Errorf("read inputs %s: %w", path, err)
	}
	return &in, nil
}
