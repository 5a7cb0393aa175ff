package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"augur/analyzer"
	"augur/analyzer/build"
	"augur/analyzer/evidence"
	"augur/analyzer/vm"
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
	printTranscript(ev, tr)
	if !tr.Reproduced {
		fmt.Printf("\nNOT REPRODUCED: %s\n", tr.Mismatch)
		return 1
	}
	return 0
}

// sourceLines caches the lines of source files for the transcript.
type sourceLines map[string][]string

func (s sourceLines) line(file string, n int) string {
	lines, ok := s[file]
	if !ok {
		if f, err := os.Open(file); err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				lines = append(lines, sc.Text())
			}
			f.Close()
		}
		s[file] = lines
	}
	if n >= 1 && n <= len(lines) {
		return strings.TrimSpace(lines[n-1])
	}
	return ""
}

func printTranscript(ev *evidence.Evidence, tr *evidence.Transcript) {
	src := sourceLines{}
	cwd, _ := os.Getwd()
	rel := func(p string) string {
		if r, err := filepath.Rel(cwd, p); err == nil && !strings.HasPrefix(r, "..") {
			return r
		}
		return p
	}
	fmt.Printf("augur replay: %s race on %s (%s order)\n", ev.Category, ev.Race.Object, ev.Order)
	fmt.Printf("  %s\n  inputs: %q\n\n", ev.Reason, ev.Inputs.Argv[1:])
	fmt.Printf("%-5s %-6s %-28s %-40s %s\n", "step", "thread", "location", "source", "event")
	for i, s := range tr.Steps {
		mark := fmt.Sprint(i + 1)
		if s.Racing != 0 {
			mark = ">>>"
		}
		loc := "-"
		code := ""
		if s.Loc.File != "" {
			loc = fmt.Sprintf("%s:%d", rel(s.Loc.File), s.Loc.Line)
			code = src.line(s.Loc.File, s.Loc.Line)
		}
		if len(code) > 40 {
			code = code[:37] + "..."
		}
		thread := fmt.Sprint(s.Thread)
		if s.Thread < 0 {
			thread = "-"
		}
		fmt.Printf("%-5s %-6s %-28s %-40s %s\n", mark, thread, loc, code, s.What)
	}
	if tr.Result == nil {
		return
	}
	t := tr.Result.Term
	fmt.Println()
	if t.Kind != vm.TermExit {
		fmt.Print("outcome: " + t.Report())
		return
	}
	fmt.Printf("outcome: exit status %d; the other order printed something else:\n\n", t.Status)
	mine := strings.Split(strings.TrimSuffix(ev.Expected.Stdout, "\n"), "\n")
	other := strings.Split(strings.TrimSuffix(ev.Expected.OtherStdout, "\n"), "\n")
	fmt.Printf("  %-36s | %s\n", "this order ("+ev.Order+")", "the other order")
	for i := 0; i < max(len(mine), len(other)); i++ {
		a, b := "", ""
		if i < len(mine) {
			a = mine[i]
		}
		if i < len(other) {
			b = other[i]
		}
		diff := " "
		if a != b {
			diff = "*"
		}
		fmt.Printf("%s %-36s | %s\n", diff, a, b)
	}
	for _, o := range tr.Result.Output {
		if len(o.Stack) > 0 {
			fmt.Printf("\n  %q printed by thread %d at %s (%s)", strings.TrimSpace(string(o.Data)), o.Thread,
				rel(o.Stack[0].Loc.File)+fmt.Sprintf(":%d", o.Stack[0].Loc.Line), o.Stack[0].Function)
		}
	}
	fmt.Println()
}
