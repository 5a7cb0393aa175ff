package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// natsEnv makes this test binary, re-executed, a NATS server with
// JetStream: "PORT,DIR". Tests kill and restart it as a separate process.
const natsEnv = "AUGUR_TEST_NATS_SERVER"

// serveNATS runs the server natsEnv describes until the process is killed.
func serveNATS(spec string) {
	port, dir, _ := strings.Cut(spec, ",")
	p, _ := strconv.Atoi(port)
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: p, JetStream: true, StoreDir: dir, NoLog: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ns.Start()
	select {}
}

// natsProcess is a NATS server in its own process, on a fixed port and
// store directory, so it can be killed and started again as the same
// server.
type natsProcess struct {
	t    *testing.T
	port int
	dir  string
	cmd  *exec.Cmd
}

func startNATS(t *testing.T) *natsProcess {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	s := &natsProcess{t: t, port: port, dir: t.TempDir()}
	s.start()
	t.Cleanup(s.kill)
	return s
}

func (s *natsProcess) url() string { return fmt.Sprintf("nats://127.0.0.1:%d", s.port) }

func (s *natsProcess) start() {
	s.cmd = exec.Command(os.Args[0], "-test.run=^$")
	s.cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d,%s", natsEnv, s.port, s.dir))
	s.cmd.Stderr = os.Stderr
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", s.port)); err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatal("the NATS server did not start")
}

func (s *natsProcess) kill() {
	if s.cmd != nil && s.cmd.Process != nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
		s.cmd = nil
	}
}

// workerProcess is an `augur worker`, with the lines it logs.
type workerProcess struct {
	cmd   *exec.Cmd
	mu    sync.Mutex
	lines []string
	grew  *sync.Cond
}

func startWorker(t *testing.T, url string, args ...string) *workerProcess {
	w := &workerProcess{}
	w.grew = sync.NewCond(&w.mu)
	w.cmd = exec.Command(augurBin, append(append([]string{"worker", "--cache-dir", t.TempDir()}, args...), url)...)
	stderr, err := w.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			w.mu.Lock()
			w.lines = append(w.lines, sc.Text())
			w.grew.Broadcast()
			w.mu.Unlock()
		}
		w.mu.Lock()
		w.lines = append(w.lines, "<exited>")
		w.grew.Broadcast()
		w.mu.Unlock()
	}()
	t.Cleanup(func() { w.cmd.Process.Kill(); w.cmd.Wait() })
	return w
}

// waitLine waits for a logged line matching re and returns its submatches.
func (w *workerProcess) waitLine(t *testing.T, re *regexp.Regexp, limit time.Duration) []string {
	t.Helper()
	deadline := time.AfterFunc(limit, func() { w.mu.Lock(); w.grew.Broadcast(); w.mu.Unlock() })
	defer deadline.Stop()
	start := time.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	for {
		for _, l := range w.lines {
			if m := re.FindStringSubmatch(l); m != nil {
				return m
			}
		}
		if time.Since(start) >= limit {
			t.Fatalf("no line matching %s in %v; the worker logged:\n%s", re, limit, strings.Join(w.lines, "\n"))
		}
		w.grew.Wait()
	}
}

func (w *workerProcess) logged() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.lines, "\n")
}

// racingCounters writes a program whose two threads race on n counters.
func racingCounters(t *testing.T, n int) string {
	var b strings.Builder
	b.WriteString("#include <pthread.h>\n#include <stdio.h>\n\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "static long c%d;\n", i)
	}
	b.WriteString("\nstatic void *work(void *arg) {\n\t(void)arg;\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\tc%d++;\n", i)
	}
	b.WriteString("\treturn NULL;\n}\n\nint main(void) {\n\tpthread_t a, b;\n\tpthread_create(&a, NULL, work, NULL);\n" +
		"\tpthread_create(&b, NULL, work, NULL);\n\tpthread_join(a, NULL);\n\tpthread_join(b, NULL);\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\tprintf(\"%%ld\\n\", c%d);\n", i)
	}
	b.WriteString("\treturn 0;\n}\n")
	path := filepath.Join(t.TempDir(), "counters.c")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// comparable is a JSON report without what differs between runs by
// nature (the time taken, in all and per race).
func comparable(t *testing.T, out string) map[string]any {
	t.Helper()
	var rep map[string]any
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	delete(rep["stats"].(map[string]any), "seconds")
	races, _ := rep["races"].([]any)
	for _, r := range races {
		delete(r.(map[string]any), "classify_seconds")
	}
	return rep
}

// Three worker processes on a NATS server in a fourth, on loopback: one is
// killed in the middle of a job, one is slow, and the server is killed and
// started again during the run. The run completes with the report of a
// single-machine run: the same races, verdicts and evidence, none lost and
// none twice.
func TestFarmSurvivesAWorkerKilledASlowWorkerAndAServerRestart(t *testing.T) {
	const races = 8
	prog := racingCounters(t, races)
	singleEvidence, farmEvidence := t.TempDir(), t.TempDir()
	single := runAugur(t, "", "analyze", "--format", "json", "--evidence-dir", singleEvidence, prog)
	if single.code != 0 {
		t.Fatalf("single-machine run: exit %d\n%s", single.code, single.stderr)
	}
	want := comparable(t, strings.ReplaceAll(single.stdout, singleEvidence, "EVIDENCE"))
	if n := len(want["races"].([]any)); n != races {
		t.Fatalf("the single-machine run found %d races, want %d", n, races)
	}

	// Each step waits for what the one before made happen, never for
	// time: the slow worker has finished a job before the fast one
	// starts, so it cannot be left without one on a busy machine.
	nats := startNATS(t)
	doomed := startWorker(t, nats.url(), "--ack-wait", "2s", "--name", "doomed", "--delay", "30s")
	slow := startWorker(t, nats.url(), "--ack-wait", "2s", "--name", "slow", "--delay", "700ms")
	for _, w := range []*workerProcess{doomed, slow} {
		w.waitLine(t, regexp.MustCompile(`taking jobs from`), time.Minute)
	}

	coord := exec.Command(augurBin, "analyze", "--format", "json", "--evidence-dir", farmEvidence, "--workers", nats.url(), prog)
	coord.Env = append(os.Environ(), "AUGUR_CACHE_DIR="+t.TempDir())
	var stdout, stderr bytes.Buffer
	coord.Stdout, coord.Stderr = &stdout, io.MultiWriter(&stderr)
	if err := coord.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- coord.Wait() }()

	finished := regexp.MustCompile(`job \d+: (output-differs|k-witness-harmless|spec-violated|single-ordering|unclassified)`)
	// The doomed worker dies holding a job.
	started := doomed.waitLine(t, regexp.MustCompile(`run (\w+) job (\d+): started`), 2*time.Minute)
	doomed.cmd.Process.Kill()
	slow.waitLine(t, finished, 2*time.Minute)
	fast := startWorker(t, nats.url(), "--ack-wait", "2s", "--name", "fast")
	fast.waitLine(t, regexp.MustCompile(`taking jobs from`), time.Minute)
	// The server goes down once a job is finished, and comes back.
	nats.kill()
	time.Sleep(300 * time.Millisecond)
	nats.start()

	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("analyze --workers: %v\n%s\nworkers:\n%s\n%s", err, stderr.String(), slow.logged(), fast.logged())
		}
	case <-time.After(4 * time.Minute):
		coord.Process.Kill()
		t.Fatalf("analyze --workers did not finish\n%s\nworkers:\n%s\n%s", stderr.String(), slow.logged(), fast.logged())
	}
	got := comparable(t, strings.ReplaceAll(stdout.String(), farmEvidence, "EVIDENCE"))
	wantJSON, _ := json.MarshalIndent(want, "", " ")
	gotJSON, _ := json.MarshalIndent(got, "", " ")
	if !bytes.Equal(wantJSON, gotJSON) {
		t.Errorf("the farm's report differs from the single-machine one:\n%s\nwant:\n%s", gotJSON, wantJSON)
	}
	// The evidence is the same, file for file and byte for byte.
	files, _ := filepath.Glob(filepath.Join(singleEvidence, "*.json"))
	if len(files) == 0 {
		t.Error("the single-machine run wrote no evidence")
	}
	for _, f := range files {
		a, _ := os.ReadFile(f)
		b, err := os.ReadFile(filepath.Join(farmEvidence, filepath.Base(f)))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("evidence %s differs between the runs (%v)", filepath.Base(f), err)
		}
	}
	// The job the doomed worker held was done by another.
	again := regexp.MustCompile(`run ` + started[1] + ` job ` + started[2] + `: started`)
	if !again.MatchString(slow.logged()) && !again.MatchString(fast.logged()) {
		t.Errorf("job %s of the killed worker was never taken again; workers:\n%s\n%s", started[2], slow.logged(), fast.logged())
	}
	if !strings.Contains(slow.logged(), ": output-differs") {
		t.Errorf("the slow worker finished no job:\n%s", slow.logged())
	}
}
