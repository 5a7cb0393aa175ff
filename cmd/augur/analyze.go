package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"augur/analyzer/farm"

	"augur/analyzer"
	"augur/analyzer/memmodel"
	"augur/analyzer/report"
	"augur/analyzer/tsan"
)

func analyzeCmd(args []string) int {
	fs, pf := newCommand("analyze", "usage: augur analyze [flags] FILES... [-- ARGS...]",
		budgets{autoInsts: true, timeout: 10 * time.Minute, maxMemory: DefaultMaxMemory})
	format := fs.String("format", "text", "report format: text, json or sarif")
	detectOnly := fs.Bool("detect-only", false, "detect races without classifying them (category unclassified)")
	ma := fs.Int("ma", 2, "post-race schedules per primary when classifying (the paper's Ma)")
	mp := fs.Int("mp", 5, "primary paths explored with symbolic inputs when classifying (the paper's Mp)")
	memoryModel := fs.String("memory-model", "sc", "memory model of the classification: sc (sequential consistency) or weak (Portend+'s weak ordering)")
	classifier := fs.String("classifier", "portend", "portend, or replay-analyzer (the PLDI 2007 baseline: compares state after both orders)")
	schedules := fs.Int("schedules", 5, "base executions to run: round robin, reversals of its acquisitions and wake-ups, then PCT schedules")
	directed := fs.Int("directed", -1, "race-directed executions after them, one per potential race (default: as many as --schedules; 0: none)")
	exploreTime := fs.Duration("explore-time", 30*time.Second, "after the planned schedules, keep exploring new ones (PCT switching at the accesses of the races found) for at most this long; it stops sooner once new schedules find nothing new (0: no exploration)")
	exploreInsts := &flagInstructions{auto: true}
	fs.Var(exploreInsts, "explore-instructions", "instructions the exploration's schedules may interpret in all: auto (ten times the first schedule's, at least 1000000000), a number, or 0 (no limit); ending by it, exploration ends at the same schedule on any machine")
	historyFile := fs.String("history", "", "keep what analyses of this program learned in this file, and build on it: new schedules each run, known races kept, k added up")
	preemptAccesses := fs.Bool("preempt-accesses", false, "also switch threads at shared memory accesses (slower, more interleavings)")
	failOn := fs.String("fail-on", "", "exit 3 when races of these categories (comma-separated) are found")
	var symArgs intList
	fs.Var(&symArgs, "sym-arg", "make the next argv entry a symbolic string of up to N bytes (repeatable); given arguments seed them")
	symStdin := fs.Int("sym-stdin", 0, "make standard input N symbolic bytes (given stdin is the seed)")
	symInputs := fs.String("sym-inputs", analyzer.SymInputsAuto, "with no --sym-* flag: auto makes the arguments given (one short argument when none is) and the first bytes of standard input symbolic around their values, as Portend+ did; none explores only the inputs the program marks itself")
	var symFiles stringList
	fs.Var(&symFiles, "sym-file", "NAME:N makes file NAME N symbolic bytes (repeatable; a --file of that name is the seed)")
	searcher := fs.String("searcher", "dfs", "path search with symbolic inputs: dfs, bfs, random-path or coverage")
	maxPaths := fs.Int("max-paths", 1000, "stop exploring symbolic inputs after this many paths")
	evidenceDir := fs.String("evidence-dir", "", "write the evidence of every harmful race and every failure here, as files augur replay replays")
	out := fs.String("o", "", "write the report to this file instead of standard output")
	var tsanReports stringList
	fs.Var(&tsanReports, "tsan-report", "also classify the data races of this ThreadSanitizer report (its text output, from a build of the same sources; - reads standard input; repeatable)")
	suggestFixes := fs.Bool("suggest-fixes", false, "propose fixes for harmful races, each checked by analyzing the changed program with the same settings; the report gives each as a diff that patch -p0 applies here")
	workers := fs.String("workers", "", "classify on the `augur worker` processes of this NATS server (nats://HOST:PORT; docs/scale-out.md); default: in this process, through an embedded NATS server")
	files, progArgs, code := parseFiles(fs, pf, args)
	if code != 0 {
		return code
	}
	model, err := memmodel.Parse(*memoryModel)
	if err != nil {
		fmt.Fprintf(os.Stderr, "augur: %v\n", err)
		return 2
	}
	if *symInputs != analyzer.SymInputsAuto && *symInputs != analyzer.SymInputsNone {
		fmt.Fprintf(os.Stderr, "augur: --sym-inputs %q: want auto or none\n", *symInputs)
		return 2
	}
	if *classifier != "portend" && *classifier != "replay-analyzer" {
		fmt.Fprintf(os.Stderr, "augur: unknown classifier %q (want portend or replay-analyzer)\n", *classifier)
		return 2
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
	warnings, err := readTSanReports(tsanReports)
	if err != nil {
		fmt.Fprintf(os.Stderr, "augur: --tsan-report: %v\n", err)
		return 2
	}
	symFileSizes := map[string]int{}
	for _, spec := range symFiles {
		name, size, ok := strings.Cut(spec, ":")
		n, err := strconv.Atoi(size)
		if !ok || err != nil || n <= 0 {
			fmt.Fprintf(os.Stderr, "augur: --sym-file %q: want NAME:N\n", spec)
			return 2
		}
		symFileSizes[name] = n
	}
	if len(symFileSizes) == 0 {
		symFileSizes = nil
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
	cfg.PreemptAccesses = *preemptAccesses
	cfg.Interrupt = interrupt
	res, err := analyzer.Analyze(context.Background(), prog, analyzer.Options{
		Run: cfg, AutoInstructions: pf.maxInsts.auto, Sources: pf.sources, Resolved: pf.resolved, Build: pf.build, Schedules: *schedules, Seed: *pf.seed, DetectOnly: *detectOnly,
		Classifier: *classifier, MemoryModel: model, Ma: *ma, Mp: *mp, SymArgs: symArgs, SymStdin: *symStdin, SymFiles: symFileSizes, SymInputs: *symInputs,
		Searcher: *searcher, MaxPaths: *maxPaths, EvidenceDir: *evidenceDir,
		Timeout: pf.timeout.d, Deadline: cfg.Deadline, Directed: directedRuns(*directed), History: *historyFile,
		Farm: farmOf(*workers), ExploreTime: analyzer.ExploreSetting(*exploreTime), TSan: warnings,
		ExploreInstructions: exploreInsts.exploreBudget(),
	}, analyzer.Observer{})
	if err != nil {
		fmt.Fprintf(os.Stderr, "augur: %v\n", err)
		return 1
	}
	if *suggestFixes {
		res.SuggestFixes(context.Background(), pf.build, prog)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(os.Stderr, "augur: %s\n", w)
	}
	cwd, _ := os.Getwd()
	rep := res.Report(cwd)
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

// intList is a repeatable integer flag.
type intList []int

func (l *intList) String() string { return fmt.Sprint(*l) }

func (l *intList) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return fmt.Errorf("want a positive size, got %q", s)
	}
	*l = append(*l, n)
	return nil
}

// directedRuns maps --directed to analyzer.Options.Directed: negative
// (the flag's default) is the analyzer's default, 0 is none.
func directedRuns(n int) int {
	switch {
	case n < 0:
		return 0
	case n == 0:
		return -1
	}
	return n
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
