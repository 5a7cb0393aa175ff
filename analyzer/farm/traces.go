package farm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"augur/analyzer/classify"
	"augur/analyzer/race"
	"augur/analyzer/sched"
)

// sharedTraceBytes is the encoded size from which a race's schedule
// travels through the JobBucket object store, once per run, rather than
// inside each job. A detection run's schedule is shared by every race it
// found, as primary occurrence or alternate: on SPLASH-2 fmm each of 51
// jobs carried the same three schedules, 34 MB a job, and the queue held
// 1.2 GB of copies of them.
const sharedTraceBytes = 64 << 10

// traceStore puts a run's large schedules into the object store, each
// distinct one once, and remembers what it put.
type traceStore struct {
	f   *Farm
	run string
	// names maps a schedule to its object ("" when it travels inline).
	names map[*sched.Trace]string
	// stored is the names of the objects put, by content: two schedules
	// alike but separately recorded are stored once.
	stored map[string]bool
}

func newTraceStore(f *Farm, run string) *traceStore {
	return &traceStore{f: f, run: run, names: map[*sched.Trace]string{}, stored: map[string]bool{}}
}

// share returns the job with its large schedules taken out of the race,
// and the object name of each occurrence's schedule: element 0 for the
// race's own occurrence, k for alternate k-1, "" for a schedule left in
// the job. The job's race is copied, not changed.
func (ts *traceStore) share(ctx context.Context, j classify.Job) (classify.Job, []string, error) {
	r := *j.Race
	r.Alternates = append([]race.Instance(nil), r.Alternates...)
	names := make([]string, 1+len(r.Alternates))
	moved := false
	for k := range names {
		in := &r.Instance
		if k > 0 {
			in = &r.Alternates[k-1]
		}
		if in.Trace == nil {
			continue
		}
		name, err := ts.put(ctx, in.Trace)
		if err != nil {
			return j, nil, err
		}
		if name != "" {
			names[k], in.Trace, moved = name, nil, true
		}
	}
	if !moved {
		return j, nil, nil
	}
	j.Race = &r
	return j, names, nil
}

// put stores tr when it is large and returns its object name, or "" when
// it stays in the job.
func (ts *traceStore) put(ctx context.Context, tr *sched.Trace) (string, error) {
	if name, ok := ts.names[tr]; ok {
		return name, nil
	}
	data, err := json.Marshal(tr)
	if err != nil {
		return "", fmt.Errorf("encode schedule: %w", err)
	}
	name := ""
	if len(data) >= sharedTraceBytes {
		sum := sha256.Sum256(data)
		name = fmt.Sprintf("%s.trace.%s", ts.run, hex.EncodeToString(sum[:16]))
		if !ts.stored[name] {
			if err := ts.f.putObject(ctx, name, data); err != nil {
				return "", err
			}
			ts.stored[name] = true
		}
	}
	ts.names[tr] = name
	return name, nil
}

// restoreTraces puts back into a decoded job the schedules its message
// names (traceStore.share).
func (f *Farm) restoreTraces(ctx context.Context, jm jobMessage, j *classify.Job) error {
	if len(jm.Traces) == 0 {
		return nil
	}
	if len(jm.Traces) > 1+len(j.Race.Alternates) {
		return fmt.Errorf("%d schedules named for a race of %d occurrences", len(jm.Traces), 1+len(j.Race.Alternates))
	}
	for k, name := range jm.Traces {
		if name == "" {
			continue
		}
		data, err := f.getObject(ctx, name)
		if err != nil {
			return err
		}
		tr := new(sched.Trace)
		if err := json.Unmarshal(data, tr); err != nil {
			return fmt.Errorf("decode schedule %s: %w", name, err)
		}
		in := &j.Race.Instance
		if k > 0 {
			in = &j.Race.Alternates[k-1]
		}
		in.Trace = tr
	}
	return nil
}
