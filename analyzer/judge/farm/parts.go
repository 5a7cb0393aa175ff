package farm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/sched"
	"augur/analyzer/judge/classify"
)

// sharedPartBytes is the size from which a large part of a job (a race's
// schedule, an input file, standard input) travels through the JobBucket
// object store, once per run, rather than inside each job. The parts are
// shared: a detection run's schedule by every race it found, as primary
// occurrence or alternate, and the inputs by every job of the run. On
// SPLASH-2 fmm each of 51 jobs carried the same three schedules, 34 MB a
// job, and the queue held 1.2 GB of copies of them.
const sharedPartBytes = 64 << 10

// sharedParts names the parts taken out of one job: the object each is in.
type sharedParts struct {
	// Traces are the schedules of the race's occurrences: element 0 its
	// own, k alternate k-1 ("" for a schedule left in the job).
	Traces []string `json:"traces,omitempty"`
	// Files are input files, by the name the program opens them by.
	Files map[string]string `json:"files,omitempty"`
	Stdin string            `json:"stdin,omitempty"`
}

func (p *sharedParts) empty() bool { return len(p.Traces) == 0 && len(p.Files) == 0 && p.Stdin == "" }

// partStore puts a run's large parts into the object store, each distinct
// one once, and remembers what it put.
type partStore struct {
	f   *Farm
	run string
	// traces maps a schedule to its object ("" when it travels inline);
	// blobs does so for input bytes, by where they are in memory: the jobs
	// of a run share their inputs' bytes.
	traces map[*sched.Trace]string
	blobs  map[blobKey]string
	// stored is the names of the objects put, by content: parts alike but
	// separately made are stored once.
	stored map[string]bool
}

type blobKey struct {
	first *byte
	n     int
}

func newPartStore(f *Farm, run string) *partStore {
	return &partStore{f: f, run: run, traces: map[*sched.Trace]string{}, blobs: map[blobKey]string{},
		stored: map[string]bool{}}
}

// share returns the job with its large parts taken out, and their names.
// The caller's job (its race and its input maps) is copied, not changed.
func (ps *partStore) share(ctx context.Context, j classify.Job) (classify.Job, sharedParts, error) {
	var parts sharedParts
	r := *j.Race
	r.Alternates = append([]race.Instance(nil), r.Alternates...)
	traces := make([]string, 1+len(r.Alternates))
	moved := false
	for k := range traces {
		in := &r.Instance
		if k > 0 {
			in = &r.Alternates[k-1]
		}
		if in.Trace == nil {
			continue
		}
		name, err := ps.putTrace(ctx, in.Trace)
		if err != nil {
			return j, parts, err
		}
		if name != "" {
			traces[k], in.Trace, moved = name, nil, true
		}
	}
	if moved {
		j.Race, parts.Traces = &r, traces
	}

	spec := &j.Options.Run
	for file, data := range spec.Files {
		name, err := ps.putBlob(ctx, data)
		if err != nil {
			return j, parts, fmt.Errorf("input file %s: %w", file, err)
		}
		if name == "" {
			continue
		}
		if parts.Files == nil {
			parts.Files = map[string]string{}
			spec.Files = maps.Clone(spec.Files)
		}
		parts.Files[file] = name
		delete(spec.Files, file)
	}
	name, err := ps.putBlob(ctx, spec.Stdin)
	if err != nil {
		return j, parts, fmt.Errorf("standard input: %w", err)
	}
	if name != "" {
		parts.Stdin, spec.Stdin = name, nil
	}
	return j, parts, nil
}

// putTrace stores tr when it is large and returns its object name, or ""
// when it stays in the job.
func (ps *partStore) putTrace(ctx context.Context, tr *sched.Trace) (string, error) {
	if name, ok := ps.traces[tr]; ok {
		return name, nil
	}
	data, err := json.Marshal(tr)
	if err != nil {
		return "", fmt.Errorf("encode schedule: %w", err)
	}
	name, err := ps.put(ctx, "trace", data)
	if err != nil {
		return "", err
	}
	ps.traces[tr] = name
	return name, nil
}

// putBlob stores input bytes when they are large and returns their object
// name, or "" when they stay in the job.
func (ps *partStore) putBlob(ctx context.Context, data []byte) (string, error) {
	if len(data) < sharedPartBytes {
		return "", nil
	}
	key := blobKey{&data[0], len(data)}
	if name, ok := ps.blobs[key]; ok {
		return name, nil
	}
	name, err := ps.put(ctx, "blob", data)
	if err != nil {
		return "", err
	}
	ps.blobs[key] = name
	return name, nil
}

// put stores data as RUN.KIND.HASH when it is large, once per content.
func (ps *partStore) put(ctx context.Context, kind string, data []byte) (string, error) {
	if len(data) < sharedPartBytes {
		return "", nil
	}
	sum := sha256.Sum256(data)
	name := fmt.Sprintf("%s.%s.%s", ps.run, kind, hex.EncodeToString(sum[:16]))
	if !ps.stored[name] {
		if err := ps.f.putObject(ctx, name, data); err != nil {
			return "", err
		}
		ps.stored[name] = true
	}
	return name, nil
}

// restoreParts puts back into a decoded job the parts its message names
// (partStore.share).
func (f *Farm) restoreParts(ctx context.Context, parts sharedParts, j *classify.Job) error {
	if len(parts.Traces) > 1+len(j.Race.Alternates) {
		return fmt.Errorf("%d schedules named for a race of %d occurrences", len(parts.Traces), 1+len(j.Race.Alternates))
	}
	for k, name := range parts.Traces {
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
	spec := &j.Options.Run
	for file, name := range parts.Files {
		data, err := f.getObject(ctx, name)
		if err != nil {
			return err
		}
		if spec.Files == nil {
			spec.Files = map[string][]byte{}
		}
		spec.Files[file] = data
	}
	if parts.Stdin != "" {
		data, err := f.getObject(ctx, parts.Stdin)
		if err != nil {
			return err
		}
		spec.Stdin = data
	}
	return nil
}
