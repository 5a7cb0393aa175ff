package build

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"augur/internal/cachefile"
	"augur/internal/safefile"
)

// Options control how translation units are compiled.
type Options struct {
	// CacheDir holds compiled bitcode; empty means DefaultCacheDir().
	CacheDir string
	// Flags are extra compiler flags (-D, -I, -std=...), applied to every TU.
	Flags []string
	// FileFlags are flags for one source only, by its absolute path (from a
	// compilation database), applied after Flags.
	FileFlags map[string][]string
	// CompileTimeout bounds each clang run (0: DefaultCompileTimeout), and
	// MaxMemory its address space (0: DefaultCompileMemory; at least 1 GiB,
	// which clang needs to start on large headers).
	CompileTimeout time.Duration
	MaxMemory      uint64
	// Progress, when set, is told after each source compiled (or failed)
	// how many of how many are done; calls do not overlap.
	Progress func(done, total int)
	// Clients are the files of each client program built with the
	// program (C/C++ sources or bitcode, compiled with the same flags):
	// programs that talk to it, run beside it (bitcode.LinkClient).
	Clients [][]string
	// stamps, set by Build, are the file stamps taken in this build.
	stamps *stampMemo
}

// limits are the resource limits of one compile.
func (o Options) limits() limits {
	lim := limits{timeout: o.CompileTimeout, memory: o.MaxMemory, output: maxCompileOutput, fileBytes: maxCompileFile}
	if lim.timeout <= 0 {
		lim.timeout = DefaultCompileTimeout
	}
	if lim.memory == 0 {
		lim.memory = DefaultCompileMemory
	}
	lim.memory = max(lim.memory, 1<<30)
	return lim
}

// DefaultCacheDir is $AUGUR_CACHE_DIR, or augur/ under the user cache directory.
func DefaultCacheDir() string {
	if d := os.Getenv("AUGUR_CACHE_DIR"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "augur")
	}
	return filepath.Join(os.TempDir(), "augur-cache")
}

// Dir is the cache directory the options name: CacheDir, or
// DefaultCacheDir.
func (o Options) Dir() string { return o.cacheDir() }

func (o Options) cacheDir() string {
	if o.CacheDir != "" {
		return o.CacheDir
	}
	return DefaultCacheDir()
}

// IsSource reports whether path names a C or C++ source file clang compiles.
func IsSource(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".c", ".cc", ".cpp", ".cxx", ".c++":
		return true
	}
	return false
}

// IsBitcode reports whether path is already LLVM IR (binary or textual).
func IsBitcode(path string) bool {
	switch filepath.Ext(path) {
	case ".bc", ".ll":
		return true
	}
	return false
}

// IsCXX reports whether path names a C++ source: compiled as C++17, with
// augur's C++ runtime linked in. As for clang, only a lower-case ".c" is C:
// ".C" is C++ (clang compiles it as C++ whatever augur says, so calling it
// C left out -std=c++17 and the C++ runtime).
func IsCXX(path string) bool { return IsSource(path) && filepath.Ext(path) != ".c" }

// compileArgs are the flags every TU gets: debug info for source positions,
// no optimization (so every source-level access is an instruction), and no
// optnone so later passes may run. _FORTIFY_SOURCE is undefined because its
// checked variants (__printf_chk, ...) are not part of the modeled libc.
// RuntimeSourceDir is what debug information and messages call the
// directory of augur's runtime sources.
const RuntimeSourceDir = "augur-runtime"

func compileArgs(src string, includeDir string, extra []string) []string {
	args := []string{"-c", "-emit-llvm", "-g", "-O0", "-Xclang", "-disable-O0-optnone",
		"-fno-color-diagnostics", "-fno-stack-protector", "-U_FORTIFY_SOURCE", "-D__AUGUR__=1"}
	if includeDir != "" {
		// The runtime's sources live in the cache under a hashed name; its
		// debug information calls them augur-runtime/... instead, so that a
		// stack frame in the runtime reads the same on every machine
		// (vm.InRuntime knows the name). clang splits the map at its first
		// '=', so a directory holding one keeps its own name.
		args = append(args, "-I", includeDir)
		if dir := filepath.Dir(includeDir); !strings.Contains(dir, "=") {
			args = append(args, "-fdebug-prefix-map="+dir+"="+RuntimeSourceDir)
		}
	}
	if IsCXX(src) {
		args = append(args, "-x", "c++", "-std=c++17")
	}
	return append(args, extra...)
}

// DepsExt is the extension of the file that lists, beside a cached
// bitcode file, the headers it was compiled from.
const DepsExt = ".deps"

// CompileTU compiles one source file to bitcode, reusing the cached result when
// the source, the flags, the compiler and every header it included are
// unchanged. A source that does not compile yields a *CompileError.
func CompileTU(ctx context.Context, src string, opts Options, includeDir string) (string, error) {
	clang, err := FindClang()
	if err != nil {
		return "", err
	}
	abs, err := filepath.Abs(src)
	if err != nil {
		return "", fmt.Errorf("compile %s: %w", src, err)
	}
	content, err := safefile.Read(abs, safefile.Rules{Max: safefile.MaxSource})
	if err != nil {
		return "", fmt.Errorf("compile %s: %w", src, err)
	}
	flags := opts.Flags
	if extra := opts.FileFlags[abs]; len(extra) > 0 {
		flags = append(append([]string(nil), flags...), extra...)
	}
	if err := CheckFlags(flags); err != nil {
		// Whoever filled the options should have refused it with a
		// message of their own; this is the last line of defense.
		return "", fmt.Errorf("compile %s: refused compiler flag: %w", src, err)
	}
	args := compileArgs(abs, includeDir, flags)
	h := sha256.New()
	cwd, _ := os.Getwd()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%s\x00", clang.Version, strings.Join(args, "\x00"), abs, src, cwd)
	h.Write(content)
	key := hex.EncodeToString(h.Sum(nil))[:32]

	dir := filepath.Join(opts.cacheDir(), "bitcode")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("compile %s: cache: %w", src, err)
	}
	bc := filepath.Join(dir, key+".bc")
	deps := filepath.Join(dir, key+DepsExt)
	if depsUnchanged(deps, opts.stamps) {
		if _, err := os.Stat(bc); err == nil {
			cachefile.Touch(bc) // recently used: pruned last
			return bc, nil
		}
	}

	tmp, err := os.MkdirTemp(dir, "tu-")
	if err != nil {
		return "", fmt.Errorf("compile %s: %w", src, err)
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "out.bc")
	dep := filepath.Join(tmp, "out.d")
	// The source is named as the user named it, so __FILE__ (and assert
	// messages) read as in a native build; the key above uses the absolute
	// path, so a relative name cannot alias another file.
	full := append(append([]string{}, args...), "-MD", "-MF", dep, "-o", out, src)
	output, runErr := clang.run(ctx, opts.limits(), full...)
	if runErr != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("compile %s: %w", src, runErr)
		}
		if errors.Is(runErr, ErrCompileLimit) {
			return "", &CompileError{File: src, Diagnostics: []Diagnostic{{File: src, Line: 1, Column: 1, Severity: "error",
				Message: fmt.Sprintf("augur stopped the compile: %v", runErr)}}, Output: string(output), Limit: true}
		}
		var exitErr interface{ ExitCode() int }
		if errors.As(runErr, &exitErr) {
			return "", &CompileError{File: src, Diagnostics: parseDiagnostics(string(output)), Output: string(output)}
		}
		return "", fmt.Errorf("compile %s: run %s: %w", src, clang.Path, runErr)
	}
	manifest, err := hashDeps(dep)
	if err != nil {
		return "", fmt.Errorf("compile %s: %w", src, err)
	}
	if err := os.Rename(out, bc); err != nil {
		return "", fmt.Errorf("compile %s: cache: %w", src, err)
	}
	if err := os.WriteFile(deps, []byte(manifest), 0o644); err != nil {
		return "", fmt.Errorf("compile %s: cache: %w", src, err)
	}
	cachefile.Keep(bc, ".bc", cachefile.Limits{Bytes: maxCacheBytes}, DepsExt, ".syms") // .syms: resolve.SymbolsExt
	return bc, nil
}

// maxCacheBytes bounds the bitcode cache: every edit of a source (every
// save in the editor) compiles a new translation unit.
const maxCacheBytes = 1 << 30

// depPrerequisites returns the files a make-style dependency file (as
// clang's -MD writes it) lists after its target: words separated by
// unescaped blanks, continued over lines ending in a backslash, with "\ "
// for a space, "\#" for '#' and "$$" for '$' in a name.
func depPrerequisites(text string) []string {
	text = strings.ReplaceAll(text, "\\\r\n", " ")
	text = strings.ReplaceAll(text, "\\\n", " ")
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\\' && i+1 < len(text) && (text[i+1] == ' ' || text[i+1] == '#' || text[i+1] == '\\'):
			cur.WriteByte(text[i+1])
			i++
			inWord = true
		case c == '$' && i+1 < len(text) && text[i+1] == '$':
			cur.WriteByte('$')
			i++
			inWord = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	// The first word ending in ':' (or a lone ':') ends the targets.
	for i, w := range words {
		if strings.HasSuffix(w, ":") {
			return words[i+1:]
		}
	}
	return nil
}

// hashDeps reads a make-style dependency file and returns a manifest of
// "hash size mtime path" lines for every file it names.
func hashDeps(depfile string) (string, error) {
	data, err := os.ReadFile(depfile)
	if err != nil {
		return "", fmt.Errorf("read dependencies: %w", err)
	}
	var b strings.Builder
	for _, f := range depPrerequisites(string(data)) {
		if a, err := filepath.Abs(f); err == nil {
			f = a
		}
		sum, err := fileHash(f)
		if err != nil {
			return "", err
		}
		size, mtime := stamp(f)
		fmt.Fprintf(&b, "%s %d %d %s\n", sum, size, mtime, f)
	}
	return b.String(), nil
}

// stamp is a file's size and modification time, or zeros when it cannot
// be read: a stamp that matches the manifest's spares hashing the file.
func stamp(path string) (int64, int64) {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return 0, 0
	}
	return st.Size(), st.ModTime().UnixNano()
}

// A stampMemo keeps the stamps one Build took. The runtime's twenty-odd
// translation units include mostly the same headers: a warm hello world
// stat'ed 370 files 2,100 times, 5 ms of its 60. A memo lives as long as
// its Build, so a header edited between two builds (an editor's saves) is
// seen by the next.
type stampMemo struct {
	mu sync.Mutex
	m  map[string][2]int64
}

// stamp is the package's stamp, taken once per path; a nil memo takes it
// every time.
func (s *stampMemo) stamp(path string) (int64, int64) {
	if s == nil {
		return stamp(path)
	}
	s.mu.Lock()
	st, ok := s.m[path]
	s.mu.Unlock()
	if !ok {
		st[0], st[1] = stamp(path)
		s.mu.Lock()
		if s.m == nil {
			s.m = map[string][2]int64{}
		}
		s.m[path] = st
		s.mu.Unlock()
	}
	return st[0], st[1]
}

// fileHash hashes a file a compile read. A file that is not a regular
// file (a device such as /dev/zero, a pipe) is named, not read: reading it
// might never end, and clang read it as what it is at the moment anyway.
func fileHash(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	if !st.Mode().IsRegular() {
		fmt.Fprintf(h, "special file %s %v", path, st.Mode())
	} else if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// depsUnchanged reports whether every file in a manifest still has its
// hash. A file whose size and modification time are those the manifest
// recorded is taken as unchanged without reading it (as make and ninja
// do), so a warm run stats the headers rather than hashing them all;
// but not a file modified within stampSlack of the manifest's writing,
// where a coarse clock could give a change the same time (git's "racy"
// files). The stamps come from the build's memo (nil: none).
func depsUnchanged(manifest string, stamps *stampMemo) bool {
	data, err := os.ReadFile(manifest)
	if err != nil {
		return false
	}
	st, err := os.Stat(manifest)
	if err != nil {
		return false
	}
	written := st.ModTime().UnixNano()
	entries := parseManifest(data)
	if entries == nil {
		return false
	}
	restamp := false
	for _, e := range entries {
		if e.stamped {
			size, mtime := stamps.stamp(e.path)
			if size != 0 && size == e.size && mtime == e.mtime && mtime < written-int64(stampSlack) {
				continue
			}
		}
		if got, err := fileHash(e.path); err != nil || got != e.sum {
			return false
		}
		restamp = true
	}
	if restamp { // hashed and unchanged: stamp them now, so the next run need not hash them again
		var b strings.Builder
		for _, e := range entries {
			size, mtime := stamp(e.path)
			fmt.Fprintf(&b, "%s %d %d %s\n", e.sum, size, mtime, e.path)
		}
		_ = cachefile.WriteAtomic(manifest, []byte(b.String())) // best effort
	}
	return true
}

// stampSlack is how long before a manifest was written a file's time
// must be for its stamp to be trusted.
const stampSlack = 2 * time.Second

// manifestEntry is one line of a dependency manifest: a file's hash, its
// stamp when the line has one (older manifests do not), and its path.
type manifestEntry struct {
	sum         string
	size, mtime int64
	stamped     bool
	path        string
}

// parseManifest reads the lines hashDeps wrote: "hash size mtime path",
// or "hash path" in older manifests. nil when one is malformed.
func parseManifest(data []byte) []manifestEntry {
	var out []manifestEntry
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		sum, rest, ok := strings.Cut(line, " ")
		if !ok {
			return nil
		}
		e := manifestEntry{sum: sum, path: rest}
		if f := strings.SplitN(rest, " ", 3); len(f) == 3 {
			size, err1 := strconv.ParseInt(f[0], 10, 64)
			mtime, err2 := strconv.ParseInt(f[1], 10, 64)
			if err1 == nil && err2 == nil && filepath.IsAbs(f[2]) {
				e.size, e.mtime, e.stamped, e.path = size, mtime, true, f[2]
			}
		}
		out = append(out, e)
	}
	return out
}
