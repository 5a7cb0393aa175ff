package farm

import (
	"context"
	"runtime"
	"sync"

	"augur/analyzer/frontend/ir"
	"augur/analyzer/judge/classify"
)

// ClassifyLocal classifies the jobs on this machine through an embedded
// farm: a NATS server inside the process and workers goroutines (0: one
// per CPU) taking jobs from it, the same code path as a farm of many
// machines. The workers share prog; nothing is downloaded.
func ClassifyLocal(ctx context.Context, prog *ir.Program, jobs []classify.Job, workers int,
	each func(i int, v *classify.Verdict)) ([]*classify.Verdict, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	defer classify.HoldReplays(prog)()
	f, err := Embedded(ctx, Config{})
	if err != nil {
		return make([]*classify.Verdict, len(jobs)), err
	}
	wctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = f.Work(wctx, WorkerOptions{Jobs: min(workers, max(len(jobs), 1)), Name: "in-process",
			programs: []*ir.Program{prog}})
	}()
	out, err := f.Classify(ctx, prog, jobs, each)
	stop() // ends the workers' pulls at once
	wg.Wait()
	f.Close()
	return out, err
}
