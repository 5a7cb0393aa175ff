package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"augur/analyzer/judge/farm"
	"augur/analyzer/settings"

	"augur/analyzer"
	"augur/analyzer/detect/tsan"
	"augur/analyzer/output/fixcheck"
	"augur/analyzer/output/report"
)

func analyzeCmd(args []string) int {
	var values settings.Values
	fs, pf := newCommand("analyze", "usage: augur analyze [flags] FILES... [-- ARGS...]", &values, nil)
	settings.AddFlags(fs, &values, nil) // every analysis setting, named as in augur.toml
	format := fs.String("format", "text", "report format: text, json or sarif")
	historyFile := fs.String("history", "", "keep what analyses of this program learned in this file, and build on it: new schedules each run, known races kept, k added up")
	failOn := fs.String("fail-on", "", "exit 3 when races of these categories (comma-separated) are found")
	evidenceDir := fs.String("evidence-dir", "", "write the evidence of every harmful race and every failure here, as files augur replay replays")
	out := fs.String("o", "", "write the report to this file instead of standard output")
	workers := fs.String("workers", "", "classify on the `augur worker` processes of this NATS server (nats://HOST:PORT; docs/scale-out.md); default: in this process, through an embedded NATS server")
	files, progArgs, code := parseFiles(fs, pf, args)
	if code != 0 {
		return code
	}
	switch *format {
	case "text", "json", "sarif":
	default:
		fmt.Fprintf(os.Stderr, "augur: unknown format %q (want text, json or sarif)\n", *format)
		return 2
	}
	if *workers != "" {
		if err := farm.ParseURL(*workers); err != nil {
			fmt.Fprintf(os.Stderr, "augur: --workers: %v\n", err)
			return 2
		}
		logf := func(format string, args ...any) { fmt.Fprintf(os.Stderr, "augur: "+format+"\n", args...) }
		if err := farm.Reach(context.Background(), *workers, logf); err != nil {
			fmt.Fprintf(os.Stderr, "augur: --workers: %v\n", err)
			return 1
		}
	}
	warnings, err := readTSanReports(values.TSanReports)
	if err != nil {
		fmt.Fprintf(os.Stderr, "augur: --tsan-report: %v\n", err)
		return 2
	}
	interrupt := interruptible() // an interrupt while compiling stops the analysis at its start
	prog, cfg, code := pf.load(files, progArgs)
	if code != 0 {
		if pf.failed != nil && *format != "text" { // a tool reading the report learns why there is none
			if c := writeReport(report.Failed(pf.failed), *format, *out); c != 0 {
				return c
			}
		}
		return code
	}
	cfg.Interrupt = interrupt
	opts := values.Options(cfg)
	opts.Sources, opts.Resolved, opts.Build, opts.Deadline = pf.sources, pf.resolved, pf.build, cfg.Deadline
	opts.EvidenceDir, opts.History, opts.Farm, opts.TSan = *evidenceDir, *historyFile, farmOf(*workers), warnings
	res, err := analyzer.Analyze(context.Background(), prog, opts, analyzer.Observer{})
	if err != nil {
		fmt.Fprintf(os.Stderr, "augur: %v\n", err)
		return 1
	}
	if values.SuggestFixes {
		fixcheck.Suggest(context.Background(), res, pf.build, prog)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(os.Stderr, "augur: %s\n", w)
	}
	cwd, _ := os.Getwd()
	rep := report.FromResult(res, cwd)
	if *evidenceDir != "" {
		if err := writeInputs(rep, *evidenceDir); err != nil {
			fmt.Fprintf(os.Stderr, "augur: %v\n", err)
			return 1
		}
	}
	if code := writeReport(rep, *format, *out); code != 0 {
		return code
	}
	if *failOn != "" {
		want := map[string]bool{}
		for _, c := range strings.Split(*failOn, ",") {
			want[strings.TrimSpace(c)] = true
		}
		for _, r := range rep.Races {
			if want[r.Category] {
				return 3
			}
		}
	}
	if !rep.Complete() {
		return exitBudget // incomplete: CI must not read "no races" into it
	}
	return 0
}

// writeInputs saves the inputs of every failure that has no evidence to
// replay (its concrete run ended otherwise) as a JSON file that `augur run
// --inputs` runs, and records its path as the evidence.
func writeInputs(rep *report.Report, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("evidence: %w", err)
	}
	for i := range rep.Failures {
		f := &rep.Failures[i]
		if f.Evidence != "" {
			continue // evidence the analysis wrote: augur replay (or augur run --inputs) takes it
		}
		path := filepath.Join(dir, fmt.Sprintf("failure-%d-inputs.json", i+1))
		data, err := json.MarshalIndent(f.Inputs, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
			return fmt.Errorf("evidence: %w", err)
		}
		f.Evidence = path
	}
	return nil
}

// interruptible makes the first SIGINT or SIGTERM stop the analysis as
// its time budget would (it keeps and reports what it found, INCOMPLETE),
// returning the channel that says so; a second one ends the process at
// once. A CI job's time limit or a user's Ctrl-C then still gets a report.
func interruptible() <-chan struct{} {
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	interrupt := make(chan struct{})
	go func() {
		<-sig
		fmt.Fprintln(os.Stderr, "augur: interrupted: stopping and reporting what was found (interrupt again to quit at once)")
		close(interrupt)
		<-sig
		os.Exit(130)
	}()
	return interrupt
}

// farmOf is where analyze classifies: the embedded farm, or the one at url.
func farmOf(url string) string {
	if url == "" {
		return analyzer.FarmEmbedded
	}
	return url
}

// writeReport writes rep in format to the file out (standard output when
// empty), and returns 1 when it could not.
func writeReport(rep *report.Report, format, out string) int {
	var w io.Writer = os.Stdout
	if out != "" {
		f, err := createOutput(out)
		if err != nil {
			return 1
		}
		defer f.Close()
		w = f
	}
	var err error
	switch format {
	case "json":
		err = report.WriteJSON(w, rep)
	case "sarif":
		err = report.WriteSARIF(w, rep)
	default:
		err = report.WriteText(w, rep)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "augur: write report: %v\n", err)
		return 1
	}
	return 0
}

// readTSanReports reads the data race warnings of ThreadSanitizer reports,
// numbered across them in order ("-" is standard input).
func readTSanReports(paths []string) ([]tsan.Warning, error) {
	var out []tsan.Warning
	for _, p := range paths {
		var r io.Reader = os.Stdin
		name := "standard input"
		if p != "-" {
			f, err := os.Open(p)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			r, name = f, p
		}
		ws, err := tsan.Parse(r, name, len(out)+1)
		if err != nil {
			return nil, err
		}
		out = append(out, ws...)
	}
	return out, nil
}
