package build

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	augurrt "augur/runtime"
)

// Program is the bitcode of a whole program: the user's translation units and
// augur's runtime, ready to be linked by the loader.
type Program struct {
	Bitcode []string // user TUs, in command-line order
	Sources []string // what each of Bitcode was built from (the file given)
	Runtime []string // runtime TUs
	// Inputs are the files the user TUs were compiled from: sources and
	// every header they include, absolute, so a caller knows which saves
	// concern the program.
	Inputs []string
	// Clients are the bitcode of each client program (Options.Clients),
	// in the order given, and ClientSources what each was built from.
	Clients       [][]string
	ClientSources [][]string
}

// All returns the user bitcode followed by the runtime's.
func (p *Program) All() []string { return append(append([]string{}, p.Bitcode...), p.Runtime...) }

// Names maps each bitcode file to what a message should call it: the
// source it was compiled from, or augur's runtime.
func (p *Program) Names() map[string]string {
	names := map[string]string{}
	for i, bc := range p.Bitcode {
		names[bc] = p.Sources[i]
	}
	for k, bcs := range p.Clients {
		for i, bc := range bcs {
			names[bc] = p.ClientSources[k][i]
		}
	}
	for _, bc := range p.Runtime {
		names[bc] = "augur's runtime"
	}
	return names
}

// Build compiles every source in files (bitcode inputs are taken as they are)
// and the runtime. All compile errors are returned together, joined, so a
// caller can show each file's diagnostics.
func Build(ctx context.Context, files []string, opts Options) (*Program, error) {
	if len(files) == 0 {
		return nil, errors.New("no input files")
	}
	if opts.stamps == nil {
		opts.stamps = &stampMemo{}
	}
	rtSrc, err := materializeRuntime(opts)
	if err != nil {
		return nil, err
	}
	include := filepath.Join(rtSrc, "include")
	p := &Program{}
	var errs []error
	var sources []string
	everything := slices.Concat(append([][]string{files}, opts.Clients...)...)
	for _, f := range everything {
		switch {
		case IsBitcode(f):
			if _, err := os.Stat(f); err != nil {
				errs = append(errs, fmt.Errorf("load %s: %w", f, err))
			}
		case IsSource(f):
			if !slices.Contains(sources, f) { // compiled once: two clangs would write the same cache file
				sources = append(sources, f)
			}
		default:
			errs = append(errs, fmt.Errorf("%s: not a C/C++ source (.c .cc .cpp .cxx) or LLVM IR (.bc .ll) file", f))
		}
	}
	compiled, compileErrs := compileAll(ctx, sources, opts, include)
	// bitcodeOf lists the bitcode of files and what each was built from.
	bitcodeOf := func(files []string) (bcs, srcs []string) {
		for _, f := range files {
			switch {
			case IsBitcode(f):
				bcs, srcs = append(bcs, f), append(srcs, f)
			case IsSource(f):
				if bc, ok := compiled[f]; ok {
					bcs, srcs = append(bcs, bc), append(srcs, f)
					p.Inputs = appendNew(p.Inputs, dependencies(bc)...)
				}
			}
		}
		return bcs, srcs
	}
	p.Bitcode, p.Sources = bitcodeOf(files)
	for _, client := range opts.Clients {
		bcs, srcs := bitcodeOf(client)
		p.Clients, p.ClientSources = append(p.Clients, bcs), append(p.ClientSources, srcs)
	}
	errs = append(errs, compileErrs...)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	rtOpts := Options{CacheDir: opts.CacheDir, CompileTimeout: opts.CompileTimeout, MaxMemory: opts.MaxMemory, // user flags do not apply to the runtime
		stamps: opts.stamps}
	libc, _ := filepath.Glob(filepath.Join(rtSrc, "libc", "*.c"))
	var entries []string
	for _, src := range libc {
		if includesGate(filepath.Base(src), p.Inputs, everything) {
			entries = append(entries, src)
		}
	}
	if anyCXX(everything) {
		cxx, _ := filepath.Glob(filepath.Join(rtSrc, "cxx", "*.cc"))
		for _, src := range cxx {
			if includesGate(filepath.Base(src), p.Inputs, everything) {
				entries = append(entries, src)
			}
		}
	}
	sort.Strings(entries)
	for _, src := range entries {
		if flags, ok := runtimeFlags[filepath.Base(src)]; ok {
			abs, _ := filepath.Abs(src)
			rtOpts.FileFlags = map[string][]string{abs: flags}
		}
		bc, err := CompileTU(ctx, src, rtOpts, include)
		rtOpts.FileFlags = nil
		if err != nil {
			return nil, fmt.Errorf("augur runtime: %w", err)
		}
		p.Runtime = append(p.Runtime, bc)
	}
	return p, nil
}

// compileAll compiles sources, as many at once as there are CPUs, and
// returns their bitcode by source and the errors in the order of the
// sources; opts.Progress hears of each one done.
func compileAll(ctx context.Context, sources []string, opts Options, include string) (map[string]string, []error) {
	bcs := make([]string, len(sources))
	errs := make([]error, len(sources))
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done int
	)
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(sources)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				bcs[i], errs[i] = CompileTU(ctx, sources[i], opts, include)
				mu.Lock()
				done++
				if opts.Progress != nil {
					opts.Progress(done, len(sources))
				}
				mu.Unlock()
			}
		}()
	}
	for i := range sources {
		next <- i
	}
	close(next)
	wg.Wait()
	out := map[string]string{}
	var failed []error
	for i, src := range sources {
		if errs[i] != nil {
			failed = append(failed, errs[i])
		} else {
			out[src] = bcs[i]
		}
	}
	return out, failed
}

// gatedRuntime names the parts of the runtime a program links only when
// one of its sources includes the header they serve (directly or through
// another): std::filesystem, std::pmr, iconv, wordexp, wide stdio, message
// queues, System V semaphores and message queues. Every program lowers
// all of the runtime it links, so these large parts would otherwise slow
// every C++ program's start.
var gatedRuntime = map[string]string{
	"fs_path.cc":         "/bits/fs_path.h",
	"fs_ops.cc":          "/bits/fs_path.h",
	"fs_dir.cc":          "/bits/fs_path.h",
	"memory_resource.cc": "/memory_resource",
	"sstream20.cc":       "/sstream",
	"time_get.cc":        "/bits/locale_facets_nonio.h",
	"iconv.c":            "/iconv.h",
	"wordexp.c":          "/wordexp.h",
	"wstdio.c":           "/wchar.h",
	"mqueue.c":           "/mqueue.h",
	"sysv_ipc.c":         "/sys/ipc.h",
}

// runtimeFlags are the flags of the runtime sources compiled otherwise
// than the rest: sstream20.cc instantiates members that <sstream> declares
// only to C++20.
var runtimeFlags = map[string][]string{
	"sstream20.cc": {"-std=c++20"},
}

// includesGate reports whether the runtime source named base is linked:
// it is not gated, or a header the program's sources were compiled from
// (inputs) is its gate, or the program has bitcode of its own, whose
// headers augur does not know.
func includesGate(base string, inputs, files []string) bool {
	gate, gated := gatedRuntime[base]
	if !gated {
		return true
	}
	for _, f := range files {
		if IsBitcode(f) {
			return true
		}
	}
	for _, in := range inputs {
		if strings.HasSuffix(in, gate) {
			return true
		}
	}
	return false
}

// anyCXX reports whether a C++ source is among files: the program then
// links augur's C++ runtime (runtime/cxx) too.
func anyCXX(files []string) bool {
	for _, f := range files {
		if IsCXX(f) {
			return true
		}
	}
	return false
}

// materializeRuntime writes the embedded runtime sources to a directory named
// by their content hash, so compiled runtime bitcode is cached like user code.
func materializeRuntime(opts Options) (string, error) {
	h := sha256.New()
	var files []string
	fs.WalkDir(augurrt.Files, ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, path)
		}
		return nil
	})
	sort.Strings(files)
	contents := map[string][]byte{}
	for _, f := range files {
		data, err := augurrt.Files.ReadFile(f)
		if err != nil {
			return "", fmt.Errorf("augur runtime: %w", err)
		}
		contents[f] = data
		fmt.Fprintf(h, "%s\x00%d\x00", f, len(data))
		h.Write(data)
	}
	dir := filepath.Join(opts.cacheDir(), "runtime-"+hex.EncodeToString(h.Sum(nil))[:16])
	if _, err := os.Stat(filepath.Join(dir, ".complete")); err == nil {
		return dir, nil
	}
	for _, f := range files {
		dst := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return "", fmt.Errorf("augur runtime: %w", err)
		}
		if err := os.WriteFile(dst, contents[f], 0o644); err != nil {
			return "", fmt.Errorf("augur runtime: %w", err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".complete"), nil, 0o644); err != nil {
		return "", fmt.Errorf("augur runtime: %w", err)
	}
	return dir, nil
}

// dependencies lists the files a cached TU was compiled from, from its
// manifest (one "hash path" line per file).
func dependencies(bc string) []string {
	data, err := os.ReadFile(strings.TrimSuffix(bc, ".bc") + ".deps")
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range parseManifest(data) {
		out = append(out, e.path)
	}
	return out
}

// appendNew appends the items not already in list.
func appendNew(list []string, items ...string) []string {
	for _, it := range items {
		found := false
		for _, x := range list {
			if x == it {
				found = true
				break
			}
		}
		if !found {
			list = append(list, it)
		}
	}
	return list
}
