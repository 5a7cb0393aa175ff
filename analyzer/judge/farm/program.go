package farm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/nats-io/nats.go/jetstream"

	"augur/analyzer/frontend/ir"
	"augur/analyzer/judge/classify"
	"augur/internal/cachefile"
)

// Program is a run's program as it travels: its fingerprint, and its
// bitcode files as objects of the bitcode store named by the SHA-256 of
// their contents, in link order, each with the source it was compiled
// from. A program is uploaded once per run, and a file already in the
// store (an earlier run of the same code) is not uploaded again.
type Program struct {
	Key   string   `json:"key"`
	Files []string `json:"files"`           // object names, in link order
	Names []string `json:"names,omitempty"` // the source of each file
}

// upload puts ref's bitcode into the store (what is not there yet) and
// returns the program as it travels.
func (f *Farm) upload(ctx context.Context, ref classify.ProgramRef) (Program, error) {
	obs, err := f.js.ObjectStore(ctx, BitcodeBucket)
	if err != nil {
		return Program{}, fmt.Errorf("object store %s: %w", BitcodeBucket, err)
	}
	p := Program{Key: ref.Key}
	for _, path := range ref.Bitcode {
		data, err := os.ReadFile(path)
		if err != nil {
			return Program{}, fmt.Errorf("upload program %.12s: %w", ref.Key, err)
		}
		name := contentName(data)
		if _, err := obs.GetInfo(ctx, name); errors.Is(err, jetstream.ErrObjectNotFound) {
			if _, err := obs.PutBytes(ctx, name, data); err != nil {
				return Program{}, fmt.Errorf("upload program %.12s: %s: %w", ref.Key, path, err)
			}
		} else if err != nil {
			return Program{}, fmt.Errorf("upload program %.12s: %w", ref.Key, err)
		}
		p.Files = append(p.Files, name)
		p.Names = append(p.Names, ref.Names[path])
	}
	return p, nil
}

// programs is a worker process's loaded programs, by fingerprint: each is
// downloaded and loaded once, however many of its jobs the worker takes.
type programs struct {
	mu     sync.Mutex
	dir    string // where downloaded bitcode is kept
	loaded map[string]*loading
}

type loading struct {
	done chan struct{}
	prog *ir.Program
	err  error
}

func newPrograms(dir string) *programs {
	return &programs{dir: dir, loaded: map[string]*loading{}}
}

// add makes prog known without a download (the embedded farm's workers
// share the coordinator's program).
func (ps *programs) add(prog *ir.Program) {
	l := &loading{done: make(chan struct{}), prog: prog}
	close(l.done)
	ps.mu.Lock()
	ps.loaded[prog.Key()] = l
	ps.mu.Unlock()
}

// get returns the program p, downloading and loading it the first time.
func (ps *programs) get(ctx context.Context, f *Farm, p Program) (*ir.Program, error) {
	ps.mu.Lock()
	l, ok := ps.loaded[p.Key]
	if !ok {
		l = &loading{done: make(chan struct{})}
		ps.loaded[p.Key] = l
		ps.mu.Unlock()
		l.prog, l.err = ps.load(ctx, f, p)
		close(l.done)
		if l.err != nil { // try again for the next job: the store may be back
			ps.mu.Lock()
			delete(ps.loaded, p.Key)
			ps.mu.Unlock()
		}
		return l.prog, l.err
	}
	ps.mu.Unlock()
	select {
	case <-l.done:
		return l.prog, l.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// load downloads p's bitcode into the cache directory (a file already
// there with the right contents is kept) and loads it.
func (ps *programs) load(ctx context.Context, f *Farm, p Program) (*ir.Program, error) {
	obs, err := f.js.ObjectStore(ctx, BitcodeBucket)
	if err != nil {
		return nil, fmt.Errorf("object store %s: %w", BitcodeBucket, err)
	}
	if err := os.MkdirAll(ps.dir, 0o755); err != nil {
		return nil, err
	}
	ref := classify.ProgramRef{Key: p.Key, Names: map[string]string{}}
	for i, name := range p.Files {
		path := filepath.Join(ps.dir, name+".bc")
		if !hasContent(path, name) {
			data, err := obs.GetBytes(ctx, name)
			if err != nil {
				return nil, fmt.Errorf("download program %.12s: %s: %w", p.Key, name, err)
			}
			if contentName(data) != name {
				return nil, fmt.Errorf("download program %.12s: %s arrived with other contents", p.Key, name)
			}
			if err := cachefile.WriteAtomic(path, data); err != nil {
				return nil, err
			}
		}
		ref.Bitcode = append(ref.Bitcode, path)
		if i < len(p.Names) && p.Names[i] != "" {
			ref.Names[path] = p.Names[i]
		}
	}
	return ref.Load()
}

// hasContent reports whether the file at path holds the contents whose
// SHA-256 is name.
func hasContent(path, name string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	return contentName(data) == name
}

// contentName names bitcode in the store: the SHA-256 of its contents.
func contentName(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
