package lsp_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// genServer writes a threaded C program of about lines lines: modules of
// lock-protected statistics with parsing helpers, called by two workers,
// plus a shared total and a ready flag updated without the lock (two
// races). It returns the number of lines written.
func genServer(path string, lines int) (int, error) {
	var b strings.Builder
	b.WriteString("/* Generated for the language server benchmark. */\n#include <pthread.h>\n#include <stdio.h>\n#include <string.h>\n\n")
	b.WriteString("static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;\nstatic long total;\nstatic int ready;\nstatic int revision = 0;\n\n")
	modules := 0
	for strings.Count(b.String(), "\n") < lines-30 {
		k := modules
		fmt.Fprintf(&b, `struct stats_%[1]d {
	long hits;
	long misses;
	char name[16];
};
static struct stats_%[1]d st_%[1]d;

static long parse_%[1]d(const char *s) {
	long v = 0;
	for (int i = 0; s[i] != '\0'; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			v = v * 10 + (s[i] - '0');
		else
			v += %[1]d;
	}
	return v;
}

static void update_%[1]d(int v) {
	pthread_mutex_lock(&lock);
	if (v %% 2 == 0)
		st_%[1]d.hits += v;
	else
		st_%[1]d.misses += v;
	pthread_mutex_unlock(&lock);
}

`, k)
		modules++
	}
	b.WriteString("static void *worker(void *arg) {\n\tlong id = (long)arg;\n")
	for k := 0; k < modules; k++ {
		fmt.Fprintf(&b, "\tupdate_%d((int)(parse_%d(\"%d\") + id));\n", k, k, k*7)
	}
	b.WriteString("\ttotal += id;\n\tready = 1;\n\treturn NULL;\n}\n\n")
	b.WriteString("int main(void) {\n\tpthread_t a, b;\n\tpthread_create(&a, NULL, worker, (void *)1L);\n")
	b.WriteString("\tpthread_create(&b, NULL, worker, (void *)2L);\n\tpthread_join(a, NULL);\n\tpthread_join(b, NULL);\n")
	b.WriteString("\tprintf(\"revision %d total %ld ready %d\\n\", revision, total, ready);\n\treturn 0;\n}\n")
	text := b.String()
	return strings.Count(text, "\n"), os.WriteFile(path, []byte(text), 0o644)
}

// genRaces writes a C program with n races: two workers each increment
// n globals without a lock, each in a function of its own, so every race
// is a diagnostic of its own.
func genRaces(path string, n int) error {
	var b strings.Builder
	b.WriteString("/* Generated for the language server benchmark. */\n#include <pthread.h>\n#include <stdio.h>\n\nstatic int revision = 0;\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "static int g%d;\n", i)
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "static void bump%[1]d(void) { g%[1]d++; }\n", i)
	}
	b.WriteString("\nstatic void *worker(void *arg) {\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\tbump%d();\n", i)
	}
	b.WriteString("\treturn arg;\n}\n\nint main(void) {\n\tpthread_t a, b;\n\tpthread_create(&a, NULL, worker, NULL);\n")
	b.WriteString("\tpthread_create(&b, NULL, worker, NULL);\n\tpthread_join(a, NULL);\n\tpthread_join(b, NULL);\n")
	b.WriteString("\tprintf(\"revision %d: %d\\n\", revision, g0);\n\treturn 0;\n}\n")
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

var revisionLine = regexp.MustCompile(`static int revision = \d+;`)

// revise changes the program's code (its revision constant), so the next
// analysis cannot reuse the last one.
func revise(t testing.TB, path string, n int) string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := revisionLine.ReplaceAllString(string(data), fmt.Sprintf("static int revision = %d;", n))
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return text
}

func medianDur(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// rssKiB reads a process's resident set size.
func rssKiB(pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return n
		}
	}
	return -1
}

// BenchmarkSaveToDiagnostics measures, for programs of up to 1,000 lines,
// the time from a save that changes the code to the first diagnostics
// (detection's races, "classifying…") and to the final ones (every race
// classified), with the default debounce and without; against clang
// alone compiling the same file and `augur analyze` doing the same work
// on the same change (target: at most 1.2x); the final diagnostics within
// a second of the save (with the debounce) for the programs of a few
// races (races300.c's 300 verdicts take seconds to classify); and the
// server's memory when idle. It prints too when the analysis ended: after the final
// diagnostics the server verifies the fixes it proposes for harmful
// races (suggestFixes, on in the editor), a whole analysis of the changed
// program for each, and only then ends its progress.
func BenchmarkSaveToDiagnostics(b *testing.B) {
	const runs = 5
	dir := b.TempDir()
	gen := filepath.Join(dir, "server1000.c")
	n, err := genServer(gen, 1000)
	if err != nil {
		b.Fatal(err)
	}
	races := filepath.Join(dir, "races300.c")
	if err := genRaces(races, 300); err != nil {
		b.Fatal(err)
	}
	programs := []struct {
		name, src string
		small     bool // held to the one-second target
	}{
		{"account.c", filepath.Join("..", "testdata", "lsp", "account.c"), true},
		{"stats_server.c", filepath.Join("..", "testdata", "race", "stats_server.c"), true},
		{fmt.Sprintf("server1000.c (%d lines)", n), gen, true},
		{"races300.c (300 races)", races, false},
	}
	for _, p := range programs {
		root := b.TempDir()
		path := filepath.Join(root, filepath.Base(strings.Fields(p.name)[0]))
		data, err := os.ReadFile(p.src)
		if err != nil {
			b.Fatal(err)
		}
		if !revisionLine.Match(data) {
			data = append([]byte("static int revision = 0;\n"), data...)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			b.Fatal(err)
		}

		// Baseline: the CLI, on the same sequence of changes.
		cache := b.TempDir()
		var cli []time.Duration
		var cliRSS int64
		for i := 1; i <= runs; i++ {
			revise(b, path, i)
			cmd := exec.Command(augurBin, "analyze", "--format", "json", "-o", filepath.Join(dir, "report.json"), path)
			cmd.Env = append(os.Environ(), "AUGUR_CACHE_DIR="+cache)
			start := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("augur analyze: %v\n%s", err, out)
			}
			cli = append(cli, time.Since(start))
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > cliRSS {
				cliRSS = ru.Maxrss
			}
		}

		// Baseline: clang alone compiling the file as augur does.
		var cc []time.Duration
		for i := 1; i <= runs; i++ {
			cmd := exec.Command(clangBin(b), "-c", "-emit-llvm", "-g", "-O0", "-Xclang", "-disable-O0-optnone",
				"-o", filepath.Join(dir, "clang.bc"), path)
			start := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("clang: %v\n%s", err, out)
			}
			cc = append(cc, time.Since(start))
		}

		first0, final0, _, _ := saveLatencies(b, root, path, runs, "0s")
		first, final, ended, idle := saveLatencies(b, root, path, runs, "200ms")
		mc, mf0, mff0, mf, mff := medianDur(cli), medianDur(first0), medianDur(final0), medianDur(first), medianDur(final)
		overhead := float64(mff0) / float64(mc)
		mcc := medianDur(cc)
		fmt.Printf("lsp %-26s clang alone %5.0fms | augur analyze %6.0fms | no debounce: first %6.0fms final %6.0fms (%.2fx of analyze, target <= 1.2x) | "+
			"200ms debounce: first %6.0fms final %6.0fms (%.1fx of clang alone, target <= 1000ms), fixes verified %6.0fms | idle server %d MiB (analyze peak %d MiB)\n",
			p.name, ms(mcc), ms(mc), ms(mf0), ms(mff0), overhead, ms(mf), ms(mff), float64(mff)/float64(mcc), ms(medianDur(ended)),
			idle/1024, cliRSS/1024)
		if overhead > 1.2 {
			b.Errorf("%s: the server took %.2fx the time of augur analyze (target 1.2x)", p.name, overhead)
		}
		if p.small && mff > time.Second {
			b.Errorf("%s: final diagnostics %v after the save (target 1s)", p.name, mff)
		}
	}
	b.ReportMetric(0, "ns/op")
	for i := 0; i < b.N; i++ {
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// clangBin is the compiler augur uses.
func clangBin(b *testing.B) string {
	if env := os.Getenv("AUGUR_CLANG"); env != "" {
		return env
	}
	p, err := exec.LookPath("clang-14")
	if err != nil {
		b.Fatal("clang-14 is not installed: make setup installs it")
	}
	return p
}

// saveLatencies starts a server with the given debounce, opens path, and
// times runs code-changing saves. It returns for each save the time to the
// first diagnostics published, to the final ones (every race classified:
// published just before the server reports "verifying fixes", or at the
// end when it proposes none) and to the end of the analysis's progress;
// and the server's idle RSS in KiB afterwards.
func saveLatencies(b *testing.B, root, path string, runs int, debounce string) (first, final, ended []time.Duration, idle int) {
	c := start(b, root, map[string]any{"debounce": debounce})
	c.open(path)
	c.waitAnalyses(1)
	uri := fileURI(path)
	for i := 1; i <= runs; i++ {
		c.mu.Lock()
		pubs, ends, verifying := c.pubs[uri], c.ends(), c.reports("verifying fixes")
		c.mu.Unlock()
		text := revise(b, path, 100+i)
		start := time.Now()
		c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}, "text": text})
		var tFirst, tFinal time.Duration
		c.waitFor("the end of the analysis", func() bool {
			if tFirst == 0 && c.pubs[uri] > pubs {
				tFirst = time.Since(start)
			}
			if tFinal == 0 && c.reports("verifying fixes") > verifying {
				tFinal = time.Since(start)
			}
			return c.ends() > ends
		})
		tEnd := time.Since(start)
		if tFinal == 0 { // no fixes to verify: the verdicts came with the end
			tFinal = tEnd
		}
		if tFirst == 0 { // nothing changed in what was shown
			tFirst = tFinal
		}
		first, final, ended = append(first, tFirst), append(final, tFinal), append(ended, tEnd)
	}
	time.Sleep(time.Second)
	idle = rssKiB(c.cmd.Process.Pid)
	c.shutdown()
	return first, final, ended, idle
}

// BenchmarkShutdownLatency measures how long the server takes to answer
// shutdown in the middle of an analysis, at each stage an analysis can be
// in: compiling (clang blocked on a FIFO), detecting (a long execution)
// and classifying (long executions of both orders of a race). Median of
// three per stage; the target is under a second.
func BenchmarkShutdownLatency(b *testing.B) {
	stages := []struct {
		name, file, stage string
		settings          map[string]any
	}{
		{"compiling", "", "building", map[string]any{"timeout": "0"}},
		{"detecting", "slow.c", "detecting", map[string]any{"maxInstructions": 0, "timeout": "0"}},
		{"classifying", "budget/slow_analysis.c", "classifying", map[string]any{"maxInstructions": 30_000_000, "timeout": "0"}},
	}
	for _, st := range stages {
		var lat []time.Duration
		for i := 0; i < 3; i++ {
			var root, path string
			if st.file == "" {
				root = workspaceWith(b)
				path = fifoSource(b, root)
			} else {
				root = workspaceWith(b, st.file)
				path = filepath.Join(root, filepath.Base(st.file))
			}
			c := start(b, root, st.settings)
			c.open(path)
			c.waitFor("the "+st.stage+" stage", func() bool {
				for _, v := range c.progress {
					if m, _ := v["message"].(string); strings.HasPrefix(m, st.stage) {
						return true
					}
				}
				return false
			})
			began := time.Now()
			if err := c.call("shutdown", nil, nil); err != nil {
				b.Fatal(err)
			}
			lat = append(lat, time.Since(began))
			c.notify("exit", nil)
			c.wait()
		}
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		fmt.Printf("shutdown while %s: median %v (of %v; target < 1s)\n", st.name, lat[1].Round(time.Millisecond), lat)
		b.ReportMetric(float64(lat[1].Microseconds())/1000, st.name+"-ms")
	}
	b.ReportMetric(0, "ns/op")
	for i := 0; i < b.N; i++ {
	}
}
