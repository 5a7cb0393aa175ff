package race_test

import (
	"bufio"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"augur/analyzer"
	"augur/analyzer/build"
	"augur/analyzer/race"
	"augur/analyzer/sched"
	"augur/analyzer/vm"
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

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// BenchmarkVersusPeers runs the annotated race corpus through augur (5
// schedules), ThreadSanitizer (5 runs) and Helgrind (5 runs), side by side,
// and prints which races each finds and augur's time relative to
// Helgrind's. Targets: augur finds every annotated race a peer finds,
// reports nothing unannotated, and is no slower than Helgrind.
func BenchmarkVersusPeers(b *testing.B) {
	const runs = 5
	files, _ := filepath.Glob("../../testdata/race/*.c")
	dir := b.TempDir()
	var augurTotal, helgrindTotal, tsanTotal time.Duration
	missed, spurious := 0, 0
	fmt.Printf("%-18s %-22s %-22s %-22s %-22s\n", "program", "annotated", "augur", "tsan", "helgrind")
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".c")
		if name == "verifier_atomic" { // SV-COMP semantics exist only under a verifier
			continue
		}
		want := linePairs{}
		for _, ls := range readExpectationsB(b, f) {
			want.add(ls[0], ls[1])
		}
		prog, err := analyzer.LoadProgram([]string{f}, build.Options{CacheDir: dir})
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		res, err := race.Detect(prog, race.Options{Schedules: runs, Seed: 1, Run: vm.Config{Args: []string{name}, MaxInstructions: 50_000_000}})
		if err != nil {
			b.Fatal(err)
		}
		augurTotal += time.Since(start)
		got := linePairs{}
		for _, r := range res.Races {
			got.add(testutil.LineIn(r.First, f), testutil.LineIn(r.Second, f))
		}
		native, tsan := filepath.Join(dir, name), filepath.Join(dir, name+"-tsan")
		for _, c := range [][]string{{"-g", "-O0", "-o", native, f, "-lpthread"}, {"-g", "-O0", "-fsanitize=thread", "-o", tsan, f}} {
			if out, err := exec.Command("clang-14", c...).CombinedOutput(); err != nil {
				b.Fatalf("%v\n%s", err, out)
			}
		}
		tsanPairs, hgPairs := linePairs{}, linePairs{}
		for i := 0; i < runs; i++ {
			start = time.Now()
			out, _ := exec.Command(tsan).CombinedOutput()
			tsanTotal += time.Since(start)
			for k := range parsePeer(string(out), f) {
				tsanPairs[k] = true
			}
			start = time.Now()
			out, _ = exec.Command("valgrind", "--tool=helgrind", native).CombinedOutput()
			helgrindTotal += time.Since(start)
			for k := range parsePeer(string(out), f) {
				hgPairs[k] = true
			}
		}
		for k := range got {
			if !want[k] {
				spurious++
				fmt.Printf("  augur reports unannotated race %v in %s\n", k, name)
			}
		}
		for _, peer := range []linePairs{tsanPairs, hgPairs} {
			for k := range peer {
				if want[k] && !got[k] {
					missed++
					fmt.Printf("  augur misses %v in %s that a peer finds\n", k, name)
				}
			}
		}
		fmt.Printf("%-18s %-22s %-22s %-22s %-22s\n", name, want, got, tsanPairs, hgPairs)
	}
	ratio := float64(augurTotal) / float64(helgrindTotal)
	fmt.Printf("augur vs peers: %d annotated races a peer found and augur missed, %d races augur reported that are not annotated\n", missed, spurious)
	fmt.Printf("wall time (%d runs each): augur %v, helgrind %v, tsan %v; augur/helgrind %.2fx (target <= 1x)\n",
		runs, augurTotal.Round(time.Millisecond), helgrindTotal.Round(time.Millisecond), tsanTotal.Round(time.Millisecond), ratio)
	b.ReportMetric(ratio, "x-helgrind")
	b.ReportMetric(float64(missed), "missed")
	b.ReportMetric(float64(spurious), "spurious")
	b.ReportMetric(0, "ns/op")
	for i := 0; i < b.N; i++ {
	}
}

func readExpectationsB(b *testing.B, path string) [][2]int {
	ex := readExpectations(b, path)
	var out [][2]int
	for _, ls := range ex.races {
		out = append(out, ls)
	}
	return out
}

// BenchmarkDetectionCost compares one execution of testdata/bench/threads.c
// with the race detector against the same execution without it (target:
// at most 2x).
func BenchmarkDetectionCost(b *testing.B) {
	prog, err := analyzer.LoadProgram([]string{"../../testdata/bench/threads.c"}, build.Options{CacheDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	var plain, detect []time.Duration
	var insts uint64
	// Each measured run starts from a collected heap, so one run's garbage
	// (the detector's shadow memory) is not collected on the next one's time.
	for i := 0; i < 5; i++ {
		m, _ := vm.New(prog, vm.Config{Args: []string{"threads"}, Policy: sched.RoundRobin{}})
		runtime.GC()
		start := time.Now()
		r := m.Run()
		plain = append(plain, time.Since(start))
		insts = r.Instructions
		d := race.New()
		m, _ = vm.New(prog, vm.Config{Args: []string{"threads"}, Policy: sched.RoundRobin{}, Monitor: d})
		d.Bind(m)
		runtime.GC()
		start = time.Now()
		r = m.Run()
		detect = append(detect, time.Since(start))
		if r.Term.Kind != vm.TermExit || len(d.Races()) != 0 {
			b.Fatalf("%s, %d races", r.Term.Report(), len(d.Races()))
		}
	}
	p, d := median(plain), median(detect)
	fmt.Printf("detection cost: plain %v, with detector %v, ratio %.2fx (target <= 2x), %d instructions\n", p, d, float64(d)/float64(p), insts)
	b.ReportMetric(float64(d)/float64(p), "x-plain")
	b.ReportMetric(0, "ns/op")
	for i := 0; i < b.N; i++ {
	}
}
