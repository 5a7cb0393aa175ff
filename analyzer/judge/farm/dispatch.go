package farm

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"augur/analyzer/frontend/ir"
	"augur/analyzer/judge/classify"
)

// jobMessage is a job as it travels: which run and which of its jobs, the
// program (in the bitcode store), and the job encoded by classify with its
// program reference reduced to the fingerprint.
type jobMessage struct {
	Run     string          `json:"run"`
	Index   int             `json:"index"`
	Program Program         `json:"program"`
	Job     json.RawMessage `json:"job,omitempty"`
	// JobObject names the job in the JobBucket object store instead, when
	// it is larger than the server takes in one message.
	JobObject string `json:"job_object,omitempty"`
	// Parts name the large parts taken out of the job (its race's
	// schedules, its inputs), which travel through the JobBucket object
	// store once per run (partStore).
	Parts *sharedParts `json:"parts,omitempty"`
}

// resultMessage is a verdict as it travels back.
type resultMessage struct {
	Run     string          `json:"run"`
	Index   int             `json:"index"`
	Worker  string          `json:"worker"`
	Verdict json.RawMessage `json:"verdict"`
	// VerdictObject names the verdict in the JobBucket object store
	// instead, when it is larger than the server takes in one message (its
	// evidence holds a schedule of the whole run).
	VerdictObject string `json:"verdict_object,omitempty"`
	// Seconds is how long the worker took (classify.Verdict.Seconds).
	Seconds float64 `json:"seconds,omitempty"`
}

// Classify farms the jobs, all for prog, out to the workers and returns
// their verdicts in job order. each, when set, is called on the calling
// goroutine as each verdict arrives, once per job however often a job
// was classified. A job that MaxDeliver workers took and none finished is
// given up: its verdict is unclassified and says why. When ctx ends, the
// run's remaining jobs are withdrawn, their verdicts stay nil, and the
// error is ctx's.
func (f *Farm) Classify(ctx context.Context, prog *ir.Program, jobs []classify.Job, each func(i int, v *classify.Verdict)) ([]*classify.Verdict, error) {
	out := make([]*classify.Verdict, len(jobs))
	if len(jobs) == 0 {
		return out, nil
	}
	run := newRunID()
	program, err := f.upload(ctx, classify.RefOf(prog))
	if err != nil {
		return out, err
	}
	defer f.forget(run)

	// Listen before publishing: verdicts may come back at once.
	results := make(chan resultMessage, 64)
	cons, err := f.js.OrderedConsumer(ctx, ResultStream, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{resultSubject + "." + run}})
	if err != nil {
		return out, fmt.Errorf("results of run %s: %w", run, err)
	}
	cc, err := cons.Consume(func(m jetstream.Msg) {
		var r resultMessage
		if json.Unmarshal(m.Data(), &r) == nil && r.Run == run {
			select {
			case results <- r:
			case <-ctx.Done():
			}
		}
	})
	if err != nil {
		return out, fmt.Errorf("results of run %s: %w", run, err)
	}
	defer cc.Stop()
	given := newGivenUp(len(jobs))
	for _, subject := range []string{maxDeliveriesAdvisory, terminatedAdvisory} {
		sub, err := f.nc.Subscribe(subject, given.note)
		if err != nil {
			return out, fmt.Errorf("advisories: %w", err)
		}
		defer sub.Unsubscribe()
	}

	seqs, objects, err := f.publish(ctx, run, program, jobs)
	if err != nil {
		return out, err
	}
	given.watch(seqs)
	done := 0
	// settle takes job i's first verdict; later ones are the same again.
	settle := func(i int, v func() *classify.Verdict) {
		if i < 0 || i >= len(jobs) || out[i] != nil {
			return
		}
		out[i] = v()
		done++
		if objects[i] != "" { // nobody needs the job any more
			f.deleteObject(ctx, objects[i])
		}
		if each != nil {
			each(i, out[i])
		}
	}
	for done < len(jobs) {
		select {
		case r := <-results:
			settle(r.Index, func() *classify.Verdict {
				data, err := f.verdictOf(ctx, r)
				if err != nil {
					return classify.GaveUp(jobs[r.Index], fmt.Sprintf("the verdict of worker %s could not be fetched: %v", r.Worker, err))
				}
				v, err := classify.DecodeVerdict(data)
				if err != nil || v.RaceID != jobs[r.Index].Race.ID {
					return classify.GaveUp(jobs[r.Index], fmt.Sprintf("worker %s sent a verdict augur cannot read: %v", r.Worker, err))
				}
				v.Seconds = r.Seconds
				return v
			})
		case g := <-given.c:
			settle(g.index, func() *classify.Verdict {
				if g.refused {
					return classify.GaveUp(jobs[g.index], "a worker refused the job (an augur worker of another version?)")
				}
				return classify.GaveUp(jobs[g.index],
					fmt.Sprintf("no worker finished classifying this race: it was delivered %d times", f.cfg.MaxDeliver))
			})
		case <-ctx.Done():
			return out, ctx.Err()
		}
	}
	return out, nil
}

// publish puts the run's jobs in the job stream and returns the stream
// sequence of each, and the object each job that travels through the
// object store is in (by job index; "" for a job in its message). A
// publication that fails (the server restarting) is tried again until ctx
// ends; the message id makes a retry that did arrive the first time count
// once.
func (f *Farm) publish(ctx context.Context, run string, program Program, jobs []classify.Job) (map[uint64]int, []string, error) {
	seqs := map[uint64]int{}
	objects := make([]string, len(jobs))
	shared := newPartStore(f, run)
	for i, j := range jobs {
		if j.Race == nil {
			return nil, nil, fmt.Errorf("job %d: no race", i)
		}
		j, parts, err := shared.share(ctx, j)
		if err != nil {
			return nil, nil, fmt.Errorf("job %d: %w", i, err)
		}
		j.Program = classify.ProgramRef{Key: program.Key}
		enc, err := classify.EncodeJob(j)
		if err != nil {
			return nil, nil, fmt.Errorf("job %d: %w", i, err)
		}
		msg := jobMessage{Run: run, Index: i, Program: program}
		if !parts.empty() {
			msg.Parts = &parts
		}
		msg.Job, msg.JobObject, err = f.stowIfLarge(ctx, fmt.Sprintf("%s.%d", run, i), enc, len(program.Key))
		if err != nil {
			return nil, nil, fmt.Errorf("job %d (%d bytes): %w", i, len(enc), err)
		}
		objects[i] = msg.JobObject
		data, err := json.Marshal(msg)
		if err != nil {
			return nil, nil, err
		}
		for {
			ack, err := f.js.Publish(ctx, jobSubject+"."+run, data, jetstream.WithMsgID(fmt.Sprintf("%s.%d", run, i)))
			if err == nil {
				seqs[ack.Sequence] = i
				break
			}
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			if !transient(err) {
				return nil, nil, fmt.Errorf("publish job %d (%d bytes): %w", i, len(data), err)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return seqs, objects, nil
}

// transient reports whether a failed publication may succeed if tried
// again: the server is restarting or slow. Anything else (a message over
// the server's limit, a stream that refuses it) fails the run at once,
// with the reason.
func transient(err error) bool {
	for _, e := range []error{nats.ErrTimeout, nats.ErrNoResponders, jetstream.ErrNoStreamResponse,
		nats.ErrConnectionReconnecting, nats.ErrDisconnected, nats.ErrConnectionClosed, context.DeadlineExceeded} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// putObject stores a run's object in JobBucket: a job or a verdict too
// large for a message (RUN.INDEX, RUN.verdict.INDEX), or a shared part of
// its jobs (RUN.trace.HASH, RUN.blob.HASH). Every name starts with the
// run, so forget finds them.
func (f *Farm) putObject(ctx context.Context, name string, data []byte) error {
	obs, err := f.js.ObjectStore(ctx, JobBucket)
	if err != nil {
		return fmt.Errorf("object store %s: %w", JobBucket, err)
	}
	if _, err := obs.PutBytes(ctx, name, data); err != nil {
		return fmt.Errorf("store %s: %w", name, err)
	}
	return nil
}

// getObject fetches what putObject stored.
func (f *Farm) getObject(ctx context.Context, name string) ([]byte, error) {
	obs, err := f.js.ObjectStore(ctx, JobBucket)
	if err != nil {
		return nil, fmt.Errorf("object store %s: %w", JobBucket, err)
	}
	data, err := obs.GetBytes(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", name, err)
	}
	return data, nil
}

// stowIfLarge returns data to carry in a message, or, when the message
// would be larger than the server takes (data plus overhead bytes of the
// message's other fields, plus a margin), stores it as name and returns
// the name instead: a large job or verdict travels like bitcode.
func (f *Farm) stowIfLarge(ctx context.Context, name string, data []byte, overhead int) (inline []byte, object string, err error) {
	if len(data)+overhead+4096 <= int(f.nc.MaxPayload()) {
		return data, "", nil
	}
	if err := f.putObject(ctx, name, data); err != nil {
		return nil, "", err
	}
	return nil, name, nil
}

// unstow is what a message carries inline, or fetches the object it names
// instead (stowIfLarge).
func (f *Farm) unstow(ctx context.Context, inline []byte, object string) ([]byte, error) {
	if object == "" {
		return inline, nil
	}
	return f.getObject(ctx, object)
}

// deleteObject removes what putObject stored, as soon as nobody needs it:
// the store is memory in the embedded farm. A failure leaves it to forget.
func (f *Farm) deleteObject(ctx context.Context, name string) {
	if obs, err := f.js.ObjectStore(ctx, JobBucket); err == nil {
		_ = obs.Delete(ctx, name)
	}
}

// verdictOf is the encoded verdict a result carries or names; a named one
// is deleted once fetched.
func (f *Farm) verdictOf(ctx context.Context, r resultMessage) ([]byte, error) {
	data, err := f.unstow(ctx, r.Verdict, r.VerdictObject)
	if err == nil && r.VerdictObject != "" {
		f.deleteObject(ctx, r.VerdictObject)
	}
	return data, err
}

// forget withdraws what is left of a run: its jobs no worker took yet, and
// its verdicts.
func (f *Farm) forget(run string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if s, err := f.js.Stream(ctx, JobStream); err == nil {
		_ = s.Purge(ctx, jetstream.WithPurgeSubject(jobSubject+"."+run))
	}
	if s, err := f.js.Stream(ctx, ResultStream); err == nil {
		_ = s.Purge(ctx, jetstream.WithPurgeSubject(resultSubject+"."+run))
	}
	if obs, err := f.js.ObjectStore(ctx, JobBucket); err == nil { // the run's large jobs
		if list, err := obs.List(ctx); err == nil {
			for _, o := range list {
				if strings.HasPrefix(o.Name, run+".") {
					_ = obs.Delete(ctx, o.Name)
				}
			}
		}
	}
}

// Where JetStream says a job reached MaxDeliver, or that a worker refused
// it for good (it cannot decode it).
const (
	maxDeliveriesAdvisory = "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + JobStream + "." + WorkerGroup
	terminatedAdvisory    = "$JS.EVENT.ADVISORY.CONSUMER.MSG_TERMINATED." + JobStream + "." + WorkerGroup
)

// givenUp turns advisories into this run's jobs that were given up.
type givenUp struct {
	mu      sync.Mutex
	seqs    map[uint64]int // stream sequence -> job index, once published
	pending []advisory     // advisories that came before watch
	c       chan gaveUp
}

type advisory struct {
	seq     uint64
	refused bool
}

type gaveUp struct {
	index   int
	refused bool // a worker refused it; else it was delivered too often
}

func newGivenUp(jobs int) *givenUp { return &givenUp{c: make(chan gaveUp, jobs)} }

func (g *givenUp) note(m *nats.Msg) {
	var a struct {
		StreamSeq uint64 `json:"stream_seq"`
	}
	if json.Unmarshal(m.Data, &a) != nil {
		return
	}
	adv := advisory{seq: a.StreamSeq, refused: m.Subject == terminatedAdvisory}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.seqs == nil {
		g.pending = append(g.pending, adv)
		return
	}
	g.send(adv)
}

// send passes on an advisory about one of this run's jobs. Caller holds mu.
func (g *givenUp) send(a advisory) {
	if i, ok := g.seqs[a.seq]; ok {
		select {
		case g.c <- gaveUp{i, a.refused}:
		default: // already given up: one advisory per job is enough
		}
	}
}

func (g *givenUp) watch(seqs map[uint64]int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.seqs = seqs
	for _, a := range g.pending {
		g.send(a)
	}
	g.pending = nil
}

// newRunID names a run: random, so runs of several coordinators on one
// server never mix. Verdicts do not depend on it.
func newRunID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
