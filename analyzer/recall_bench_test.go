package analyzer_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"augur/analyzer"
	"augur/analyzer/detect/race"
	"augur/analyzer/detect/race/racetest"
	"augur/internal/testutil"
)

// linePairs is a set of races as unordered pairs of source lines.
type linePairs map[[2]int]bool

func (p linePairs) add(a, b int) {
	if a > b {
		a, b = b, a
	}
	if a > 0 {
		p[[2]int{a, b}] = true
	}
}

func (p linePairs) String() string {
	var s []string
	for k := range p {
		s = append(s, fmt.Sprintf("%d-%d", k[0], k[1]))
	}
	sort.Strings(s)
	return "{" + strings.Join(s, " ") + "}"
}

// count returns how many of p are in want, and how many are not.
func (p linePairs) count(want linePairs) (found, spurious int) {
	for k := range p {
		if want[k] {
			found++
		} else {
			spurious++
		}
	}
	return found, spurious
}

// parsePeer reads ThreadSanitizer or Helgrind output: each race is a header
// line, then the first frame in file for the current access, then (after
// "Previous"/"conflicts with a previous") the first frame for the other.
func parsePeer(out, file string) linePairs {
	frame := regexp.MustCompile(regexp.QuoteMeta(filepath.Base(file)) + `:(\d+)`)
	pairs := linePairs{}
	state, first := 0, 0 // 0 idle, 1 want current frame, 2 want previous marker, 3 want previous frame
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.Contains(line, "WARNING: ThreadSanitizer: data race") || strings.Contains(line, "Possible data race during"):
			state, first = 1, 0
		case state == 2 && (strings.Contains(line, "  Previous ") || strings.Contains(line, "conflicts with a previous")):
			state = 3
		case state == 1 || state == 3:
			if m := frame.FindStringSubmatch(line); m != nil {
				n, _ := strconv.Atoi(m[1])
				if state == 1 {
					first, state = n, 2
				} else {
					pairs.add(first, n)
					state = 0
				}
			}
		}
	}
	return pairs
}

// nondetStub defines the SV-COMP input functions for native builds: with
// no input, each returns 0, the value augur's seed input gives them.
const nondetStub = `
int __VERIFIER_nondet_int(void) { return 0; }
unsigned __VERIFIER_nondet_uint(void) { return 0; }
unsigned char __VERIFIER_nondet_uchar(void) { return 0; }
long __VERIFIER_nondet_long(void) { return 0; }
`

// peerRuns is how many times ThreadSanitizer and Helgrind run each
// program (their schedules vary from run to run).
const peerRuns = 5

// BenchmarkRecall runs the annotated race corpus (testdata/race and the
// races hidden behind lock, condition-variable and semaphore order or
// narrow inputs of testdata/recall) through augur's detection twice, with
// the five base schedules alone (today's plan before race-directed
// scheduling and explored inputs) and with the whole plan, and through
// ThreadSanitizer and Helgrind (five runs each) in the same run. It prints
// which annotated races each finds, which technique of augur's plan found
// each first, the races reported that are not annotated, and the whole
// plan's detection time against the base plan's. Targets: every annotated
// race found, no race reported that is not annotated, at most 2x the base
// plan's time.
func BenchmarkRecall(b *testing.B) {
	files := append(testutil.Programs("../testdata/race"), testutil.Programs("../testdata/recall")...)
	dir := b.TempDir()
	stub := filepath.Join(dir, "nondet.c")
	if err := os.WriteFile(stub, []byte(nondetStub), 0o644); err != nil {
		b.Fatal(err)
	}
	type tally struct{ found, spurious int }
	var base, full, tsan, hg tally
	annotated := 0
	byTech := map[race.Technique]int{}
	var baseTime, fullTime time.Duration
	var ratios []float64
	fmt.Printf("%-22s %-18s %-18s %-30s %-14s %-14s\n", "program", "annotated", "augur base", "augur full (technique)", "tsan", "helgrind")
	for _, f := range files {
		name := filepath.Base(f)
		if name == "verifier_atomic.c" { // SV-COMP atomic sections exist only under a verifier
			continue
		}
		want := linePairs{}
		for ls := range testutil.RacePairs(b, f) {
			want.add(ls[0], ls[1])
		}
		annotated += len(want)
		prog := mustLoad(b, f)
		detect := func(directed int) (linePairs, []*race.Race, time.Duration) {
			opts := corpusOptions(b, f)
			opts.DetectOnly, opts.Directed = true, directed
			opts.ExploreTime = -1 // the plan's cost; BenchmarkExploreCorpus measures the exploration
			start := time.Now()
			res, err := analyzer.Analyze(context.Background(), prog, opts, analyzer.Observer{})
			if err != nil {
				b.Fatal(err)
			}
			took := time.Since(start)
			got := linePairs{}
			for _, r := range res.Races {
				got.add(racetest.LineIn(r.First, f), racetest.LineIn(r.Second, f))
			}
			return got, res.Races, took
		}
		// A first analysis takes the program's one-off costs (location
		// tables, the runtime's first use); then the two plans alternate,
		// three times each, and their medians are compared.
		detect(-1)
		var baseGot, fullGot linePairs
		var races []*race.Race
		var tbs, tfs []time.Duration
		for rep := 0; rep < 3; rep++ {
			g, _, tb := detect(-1)
			baseGot, tbs = g, append(tbs, tb)
			g, rs, tf := detect(0)
			fullGot, races, tfs = g, rs, append(tfs, tf)
		}
		tb, tf := medianOf(tbs), medianOf(tfs)
		baseTime += tb
		fullTime += tf
		ratios = append(ratios, float64(tf)/float64(tb))
		techs := map[[2]int]race.Technique{}
		for _, r := range races {
			p := linePairs{}
			p.add(racetest.LineIn(r.First, f), racetest.LineIn(r.Second, f))
			for k := range p {
				if want[k] {
					if _, ok := techs[k]; !ok {
						techs[k] = r.Technique
						byTech[r.Technique]++
					}
				}
			}
		}
		tsanGot, hgGot := runPeers(b, f, dir, stub)
		for _, x := range []struct {
			got linePairs
			t   *tally
		}{{baseGot, &base}, {fullGot, &full}, {tsanGot, &tsan}, {hgGot, &hg}} {
			fd, sp := x.got.count(want)
			x.t.found += fd
			x.t.spurious += sp
		}
		var how []string
		for k, t := range techs {
			how = append(how, fmt.Sprintf("%d-%d:%s", k[0], k[1], t))
		}
		sort.Strings(how)
		fmt.Printf("%-22s %-18s %-18s %-30s %-14s %-14s\n", strings.TrimSuffix(name, filepath.Ext(name)), want, baseGot,
			strings.Join(how, " "), tsanGot, hgGot)
	}
	sort.Float64s(ratios)
	median := ratios[len(ratios)/2]
	fmt.Printf("annotated races: %d\n", annotated)
	for _, x := range []struct {
		name string
		t    tally
	}{{"augur, base plan (5 schedules)", base}, {"augur, whole plan", full},
		{fmt.Sprintf("ThreadSanitizer (%d runs)", peerRuns), tsan}, {fmt.Sprintf("Helgrind (%d runs)", peerRuns), hg}} {
		fmt.Printf("  %-32s found %3d of %d, %d reported that are not annotated\n", x.name, x.t.found, annotated, x.t.spurious)
	}
	fmt.Printf("  first found by technique:")
	for _, t := range race.Techniques {
		fmt.Printf(" %s %d;", t, byTech[t])
	}
	fmt.Println()
	fmt.Printf("detection time (medians of 3): base plan %v, whole plan %v in all; whole/base %.2fx in all, median per program %.2fx (target <= 2x), highest %.2fx\n",
		baseTime.Round(time.Millisecond), fullTime.Round(time.Millisecond), float64(fullTime)/float64(baseTime), median, ratios[len(ratios)-1])
	b.ReportMetric(float64(full.found), "found")
	b.ReportMetric(float64(annotated-full.found), "missed")
	b.ReportMetric(float64(full.spurious), "spurious")
	b.ReportMetric(median, "x-base-time")
	b.ReportMetric(0, "ns/op")
	for i := 0; i < b.N; i++ {
	}
}

// runPeers builds f natively and with ThreadSanitizer and returns the races
// ThreadSanitizer and Helgrind report over peerRuns runs each.
func runPeers(b *testing.B, f, dir, stub string) (tsan, helgrind linePairs) {
	tsan, helgrind = linePairs{}, linePairs{}
	name := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
	cc := "clang-14"
	srcs := []string{f, stub}
	if strings.HasSuffix(f, ".cpp") {
		cc, srcs = "clang++-14", []string{f}
	}
	native, tsanBin := filepath.Join(dir, name), filepath.Join(dir, name+"-tsan")
	// DWARF 4: Valgrind 3.19 cannot read the DWARF 5 clang-14 writes by
	// default, and Helgrind then reports races without source lines.
	for _, args := range [][]string{{"-gdwarf-4", "-O0", "-o", native, "-lpthread"}, {"-gdwarf-4", "-O0", "-fsanitize=thread", "-o", tsanBin}} {
		if out, err := exec.Command(cc, append(args, srcs...)...).CombinedOutput(); err != nil {
			b.Fatalf("%s: %v\n%s", cc, err, out)
		}
	}
	for i := 0; i < peerRuns; i++ {
		out, _ := runCapped(tsanBin)
		for k := range parsePeer(out, f) {
			tsan[k] = true
		}
		out, _ = runCapped("valgrind", "--tool=helgrind", native)
		for k := range parsePeer(out, f) {
			helgrind[k] = true
		}
	}
	return tsan, helgrind
}

// runCapped runs a peer with a time limit: a program whose schedule
// deadlocks natively (a lost wake-up) must not hang the benchmark.
func runCapped(name string, args ...string) (string, error) {
	return runCappedFor(20*time.Second, name, args...)
}

// runCappedFor is runCapped with a limit of d.
func runCappedFor(d time.Duration, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	return string(out), err
}

func medianOf(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
