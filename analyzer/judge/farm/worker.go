package farm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"augur/analyzer/frontend/build"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/judge/classify"
)

// WorkerOptions configure a worker.
type WorkerOptions struct {
	// Jobs is how many jobs the worker runs at once (default 1), and so
	// the most it holds unacknowledged: it fetches only what it has room
	// for, and the rest stays in the queue for other workers.
	Jobs int
	// CacheDir keeps downloaded bitcode (default: farm/ in augur's cache
	// directory, build.DefaultCacheDir).
	CacheDir string
	// Name identifies the worker in logs and verdict messages (default:
	// host name and process id).
	Name string
	// Delay is waited before each job: for fault and load tests, which
	// need a slow worker.
	Delay time.Duration
	// Log receives a line per job started and finished (nil: none).
	Log func(format string, args ...any)
	// programs preloads programs (the embedded farm's workers share the
	// coordinator's).
	programs []*ir.Program
}

// Work takes jobs from the farm's queue and classifies them until ctx
// ends. A job running when ctx ends is canceled and handed back to the
// queue (nak), so another worker takes it at once.
func (f *Farm) Work(ctx context.Context, opts WorkerOptions) error {
	jobs := max(opts.Jobs, 1)
	if opts.Name == "" {
		host, _ := os.Hostname()
		opts.Name = fmt.Sprintf("%s/%d", host, os.Getpid())
	}
	if opts.Log == nil {
		opts.Log = func(string, ...any) {}
	}
	if opts.CacheDir == "" {
		opts.CacheDir = filepath.Join(build.DefaultCacheDir(), "farm")
	}
	ps := newPrograms(opts.CacheDir)
	for _, p := range opts.programs {
		ps.add(p)
	}
	var cons jetstream.Consumer
	for {
		var err error
		if cons, err = f.js.Consumer(ctx, JobStream, WorkerGroup); err == nil {
			break
		}
		if ctx.Err() != nil {
			return nil
		}
		time.Sleep(200 * time.Millisecond) // the server may be restarting
	}
	// Each of the jobs slots pulls one job at a time, so the worker never
	// holds more than jobs unacknowledged, and a job is taken as soon as
	// a slot is free.
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				pull, cancel := context.WithTimeout(ctx, 5*time.Second)
				m, err := cons.Next(jetstream.FetchContext(pull))
				cancel()
				if err != nil {
					if ctx.Err() == nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, nats.ErrTimeout) &&
						!errors.Is(err, jetstream.ErrNoMessages) {
						time.Sleep(100 * time.Millisecond) // the server may be restarting
					}
					continue
				}
				f.handle(ctx, m, ps, opts)
			}
		}()
	}
	wg.Wait()
	return nil
}

// handle classifies one job: it says the job is in progress while it
// runs, publishes the verdict, and acks only after the verdict is stored.
func (f *Farm) handle(ctx context.Context, m jetstream.Msg, ps *programs, opts WorkerOptions) {
	var jm jobMessage
	if err := json.Unmarshal(m.Data(), &jm); err != nil {
		opts.Log("dropping a message that is not a job: %v", err)
		_ = m.Term()
		return
	}
	enc, err := f.unstow(ctx, jm.Job, jm.JobObject)
	if err != nil {
		opts.Log("run %s job %d: %v", jm.Run, jm.Index, err)
		_ = m.NakWithDelay(time.Second) // the store may be restarting
		return
	}
	job, err := classify.DecodeJob(enc)
	if err != nil {
		opts.Log("run %s job %d: %v", jm.Run, jm.Index, err)
		_ = m.Term()
		return
	}
	if jm.Parts != nil {
		err = f.restoreParts(ctx, *jm.Parts, &job)
	}
	if err != nil {
		opts.Log("run %s job %d: %v", jm.Run, jm.Index, err)
		_ = m.NakWithDelay(time.Second) // the store may be restarting
		return
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() { // in progress, every third of the ack wait
		t := time.NewTicker(f.cfg.AckWait / 3)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				_ = m.InProgress()
			case <-stop:
				return
			}
		}
	}()
	opts.Log("run %s job %d: started (race %s)", jm.Run, jm.Index, job.Race.ID)
	if opts.Delay > 0 {
		select {
		case <-time.After(opts.Delay):
		case <-ctx.Done():
		}
	}
	prog, err := ps.get(ctx, f, jm.Program)
	if err != nil {
		opts.Log("run %s job %d: %v", jm.Run, jm.Index, err)
		_ = m.NakWithDelay(time.Second) // another worker, or this one later, may load it
		return
	}
	cancel := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			close(cancel)
		case <-stop:
		}
	}()
	v := job.Run(prog, cancel)
	if ctx.Err() != nil {
		_ = m.Nak() // canceled: another worker does it
		return
	}
	data, err := classify.EncodeVerdict(v)
	if err == nil {
		rm := resultMessage{Run: jm.Run, Index: jm.Index, Worker: opts.Name, Seconds: v.Seconds}
		// A verdict whose evidence holds a whole run's schedule may be
		// larger than a message.
		rm.Verdict, rm.VerdictObject, err = f.stowIfLarge(ctx, fmt.Sprintf("%s.verdict.%d", jm.Run, jm.Index), data, 0)
		if err != nil {
			opts.Log("run %s job %d: storing the verdict: %v", jm.Run, jm.Index, err)
			_ = m.NakWithDelay(time.Second) // the store may be restarting
			return
		}
		data, err = json.Marshal(rm)
	}
	if err != nil {
		opts.Log("run %s job %d: %v", jm.Run, jm.Index, err)
		_ = m.Term()
		return
	}
	pctx, cancelPub := context.WithTimeout(context.Background(), f.cfg.AckWait)
	defer cancelPub()
	if _, err := f.js.Publish(pctx, resultSubject+"."+jm.Run, data,
		jetstream.WithMsgID(fmt.Sprintf("%s.%d", jm.Run, jm.Index))); err != nil {
		opts.Log("run %s job %d: publishing the verdict: %v", jm.Run, jm.Index, err)
		_ = m.Nak()
		return
	}
	if err := m.DoubleAck(pctx); err != nil {
		opts.Log("run %s job %d: ack: %v", jm.Run, jm.Index, err)
	}
	opts.Log("run %s job %d: %s", jm.Run, jm.Index, v.Category)
}
