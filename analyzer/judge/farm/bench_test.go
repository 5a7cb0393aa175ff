package farm_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"augur/analyzer/exec/memmodel"
	"augur/analyzer/judge/classify"
	"augur/analyzer/judge/farm"
)

// BenchmarkFarmThroughput measures races classified per second: by the
// in-process pool (the baseline, one goroutine per CPU), by the embedded
// farm, and by 1, 2 and 4 `augur worker` processes on a NATS server on
// loopback, all on the same 200 jobs (a multipath race of about 25 ms,
// repeated) in the same run. On a 2-core machine the processes cannot
// beat the pool: the numbers say what the queue costs, and where adding
// workers stops helping (docs/scale-out.md).
func BenchmarkFarmThroughput(b *testing.B) {
	prog, base := jobsOf(b, "../../../testdata/classify/overflow_other_input.c", memmodel.SC)
	jobs := make([]classify.Job, 200)
	for i := range jobs {
		jobs[i] = base[i%len(base)]
	}
	want := encoded(b, classify.ClassifyEach(prog, jobs[:len(base)], 1, nil, nil))
	check := func(what string, vs []*classify.Verdict) {
		got := encoded(b, vs)
		for i := range got {
			sameVerdicts(b, what, got[i:i+1], want[i%len(base):i%len(base)+1])
		}
	}
	rate := func(d time.Duration) float64 { return float64(len(jobs)) / d.Seconds() }
	ctx := context.Background()

	t0 := time.Now()
	check("pool", classify.ClassifyEach(prog, jobs, 0, nil, nil))
	pool := time.Since(t0)
	t0 = time.Now()
	vs, err := farm.ClassifyLocal(ctx, prog, jobs, 0, nil)
	if err != nil {
		b.Fatal(err)
	}
	check("embedded", vs)
	embedded := time.Since(t0)
	fmt.Printf("farm throughput (%d jobs of ~%v): in-process pool %.1f races/s; embedded farm %.1f races/s (%.2fx the pool)\n",
		len(jobs), pool/time.Duration(len(jobs))*2, rate(pool), rate(embedded), rate(embedded)/rate(pool))
	b.ReportMetric(rate(embedded)/rate(pool), "embedded/pool")

	bin := filepath.Join(b.TempDir(), "augur")
	if out, err := exec.Command("go", "build", "-tags=llvm14", "-o", bin, "augur/cmd/augur").CombinedOutput(); err != nil {
		b.Fatalf("build augur: %v\n%s", err, out)
	}
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: b.TempDir(), NoLog: true})
	if err != nil {
		b.Fatal(err)
	}
	ns.Start()
	defer ns.Shutdown()
	if !ns.ReadyForConnections(10 * time.Second) {
		b.Fatal("NATS server not ready")
	}
	for _, n := range []int{1, 2, 4} {
		var workers []*exec.Cmd
		for i := 0; i < n; i++ {
			w := exec.Command(bin, "worker", "--quiet", "--cache-dir", b.TempDir(), ns.ClientURL())
			w.Stderr = os.Stderr
			if err := w.Start(); err != nil {
				b.Fatal(err)
			}
			workers = append(workers, w)
		}
		f, err := farm.Connect(ctx, ns.ClientURL(), farm.Config{})
		if err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		vs, err := f.Classify(ctx, prog, jobs, nil)
		d := time.Since(t0)
		f.Close()
		for _, w := range workers {
			w.Process.Signal(syscall.SIGTERM)
			w.Wait()
		}
		if err != nil {
			b.Fatal(err)
		}
		check(fmt.Sprintf("%d workers", n), vs)
		fmt.Printf("farm throughput: %d worker process(es) %.1f races/s (%.2fx the pool)\n", n, rate(d), rate(d)/rate(pool))
		b.ReportMetric(rate(d)/rate(pool), fmt.Sprintf("%dproc/pool", n))
	}
	b.ReportMetric(0, "ns/op")
}
