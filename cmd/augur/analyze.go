package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"augur/analyzer/race"
	"augur/analyzer/report"
)

func analyzeCmd(args []string) int {
	fs, pf := newCommand("analyze", "usage: augur analyze --detect-only [flags] FILES... [-- ARGS...]", 200_000_000)
	format := fs.String("format", "text", "report format: text, json or sarif")
	detectOnly := fs.Bool("detect-only", false, "detect races without classifying them (category unclassified)")
	schedules := fs.Int("schedules", 5, "executions to run: round robin, lock-order reversals, then PCT schedules")
	preemptAccesses := fs.Bool("preempt-accesses", false, "also switch threads at shared memory accesses (slower, more interleavings)")
	failOn := fs.String("fail-on", "", "exit 3 when races of these categories (comma-separated) are found")
	out := fs.String("o", "", "write the report to this file instead of standard output")
	files, progArgs, code := parseFiles(fs, args)
	if code != 0 {
		return code
	}
	switch *format {
	case "text", "json", "sarif":
	default:
		fmt.Fprintf(os.Stderr, "augur: unknown format %q (want text, json or sarif)\n", *format)
		return 2
	}
	if !*detectOnly {
		fmt.Fprintln(os.Stderr, "augur analyze: classifying races (spec-violated, output-differs, k-witness-harmless, "+
			"single-ordering) is not implemented yet; run with --detect-only to detect them")
		return 2
	}
	prog, cfg, code := pf.load(files, progArgs)
	if code != 0 {
		return code
	}
	cfg.PreemptAccesses = *preemptAccesses
	res, err := race.Detect(prog, race.Options{Schedules: *schedules, Seed: *pf.seed, Run: cfg})
	if err != nil {
		fmt.Fprintf(os.Stderr, "augur: %v\n", err)
		return 1
	}
	cwd, _ := os.Getwd()
	rep := report.FromDetection(res, cfg.Args[1:], cwd)
	var w io.Writer = os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintf(os.Stderr, "augur: %v\n", err)
			return 1
		}
		defer f.Close()
		w = f
	}
	switch *format {
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
	return 0
}
