package build

import (
	"augur/internal/safefile"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
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

func isCXX(path string) bool { return IsSource(path) && strings.ToLower(filepath.Ext(path)) != ".c" }

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
		// (vm.inRuntime knows the name). clang splits the map at its first
		// '=', so a directory holding one keeps its own name.
		args = append(args, "-I", includeDir)
		if dir := filepath.Dir(includeDir); !strings.Contains(dir, "=") {
			args = append(args, "-fdebug-prefix-map="+dir+"="+RuntimeSourceDir)
		}
	}
	if isCXX(src) {
		args = append(args, "-x", "c++", "-std=c++17")
	}
	return append(args, extra...)
}

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
	deps := filepath.Join(dir, key+".deps")
	if depsUnchanged(deps) {
		if _, err := os.Stat(bc); err == nil {
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
	return bc, nil
}

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
// "hash path" lines for every file it names.
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
		fmt.Fprintf(&b, "%s %s\n", sum, f)
	}
	return b.String(), nil
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

// depsUnchanged reports whether every file in a manifest still has its hash.
func depsUnchanged(manifest string) bool {
	data, err := os.ReadFile(manifest)
	if err != nil {
		return false
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		sum, path, ok := strings.Cut(line, " ")
		if !ok {
			return false
		}
		if got, err := fileHash(path); err != nil || got != sum {
			return false
		}
	}
	return true
}
