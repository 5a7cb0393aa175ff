// Package build turns C and C++ sources into LLVM bitcode with clang-14: it
// finds the compiler, compiles one translation unit at a time into a
// content-addressed cache, reports compiler errors as structured values, and
// adds the bitcode of augur's C runtime so the result can be linked and
// interpreted.
package build

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"augur/internal/cachefile"
)

// ErrNoCompiler is wrapped by the error returned when clang-14 cannot be found.
var ErrNoCompiler = errors.New("clang-14 not found")

// Clang is a located clang-14 binary.
type Clang struct {
	Path    string // absolute or PATH-relative path of the binary
	Version string // first line of `clang --version`
}

var (
	clangOnce sync.Once
	clangVal  *Clang
	clangErr  error
)

// FindClang locates the compiler: $AUGUR_CLANG when set, otherwise clang-14 on
// PATH, otherwise LLVM 14's own bin directory. The answer is computed once per
// process.
func FindClang() (*Clang, error) {
	clangOnce.Do(func() { clangVal, clangErr = findClang() })
	return clangVal, clangErr
}

func findClang() (*Clang, error) {
	var candidates []string
	if env := os.Getenv("AUGUR_CLANG"); env != "" {
		candidates = []string{env}
	} else {
		candidates = []string{"clang-14", "/usr/lib/llvm-14/bin/clang"}
	}
	for _, c := range candidates {
		path, err := exec.LookPath(c)
		if err != nil {
			continue
		}
		version, err := clangVersion(path)
		if err != nil {
			return nil, err
		}
		return &Clang{Path: path, Version: version}, nil
	}
	if env := os.Getenv("AUGUR_CLANG"); env != "" {
		return nil, fmt.Errorf("%w: AUGUR_CLANG=%s is not an executable; unset it or run `make setup`", ErrNoCompiler, env)
	}
	return nil, fmt.Errorf("%w on PATH or in /usr/lib/llvm-14/bin; run `make setup` (or set AUGUR_CLANG)", ErrNoCompiler)
}

// clangVersion is the first line of `path --version`. Running it costs
// clang's start-up (0.17 s here, most of a small analysis), so the answer
// is kept in the cache directory under the binary's identity (the file it
// resolves to, its size and modification time) and reused while that
// binary is unchanged.
func clangVersion(path string) (string, error) {
	key := ""
	if real, err := filepath.EvalSymlinks(path); err == nil {
		if fi, err := os.Stat(real); err == nil {
			h := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d\x00%d", real, fi.Size(), fi.ModTime().UnixNano())))
			key = filepath.Join(DefaultCacheDir(), "clang-version-"+hex.EncodeToString(h[:8]))
		}
	}
	if key != "" {
		if data, err := os.ReadFile(key); err == nil && len(bytes.TrimSpace(data)) > 0 {
			return string(bytes.TrimSpace(data)), nil
		}
	}
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("run %s --version: %w", path, err)
	}
	first, _, _ := strings.Cut(string(out), "\n")
	version := strings.TrimSpace(first)
	if key != "" && version != "" {
		_ = cachefile.WriteAtomic(key, []byte(version+"\n")) // best effort
	}
	return version, nil
}

// Limits of one clang run: a compile that takes longer, needs more memory
// or writes more than these is stopped and reported, so a source that
// includes /dev/zero (or a template explosion) cannot take the machine.
type limits struct {
	timeout   time.Duration // wall time of the compile
	memory    uint64        // address space, in bytes
	output    int           // bytes of diagnostics kept
	fileBytes uint64        // largest file clang may write
}

// Defaults of the compile limits.
const (
	DefaultCompileTimeout = 2 * time.Minute
	DefaultCompileMemory  = 4 << 30
	maxCompileOutput      = 1 << 20
	maxCompileFile        = 1 << 30
)

// ErrCompileLimit is wrapped by the error of a compile stopped by one of its
// limits (time or memory).
var ErrCompileLimit = errors.New("compile limit")

// run executes clang with args under lim and ctx and returns its combined
// diagnostics output (at most lim.output bytes). The compiler runs in a
// process group of its own under a shell that sets its resource limits,
// and the whole group is killed when ctx ends or the time runs out.
func (c *Clang) run(ctx context.Context, lim limits, args ...string) (output []byte, err error) {
	parent := ctx
	if lim.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, lim.timeout)
		defer cancel()
	}
	script := fmt.Sprintf(`ulimit -v %d && ulimit -f %d && exec "$0" "$@"`, lim.memory/1024, lim.fileBytes/512)
	cmd := exec.CommandContext(ctx, "/bin/sh", append([]string{"-c", script, c.Path}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.WaitDelay = time.Second
	buf := &cappedBuffer{max: lim.output}
	cmd.Stdout, cmd.Stderr = buf, buf
	err = cmd.Run()
	out := buf.Bytes()
	switch {
	case parent.Err() != nil: // canceled, or the caller's deadline passed
		return out, parent.Err()
	case ctx.Err() != nil:
		return out, fmt.Errorf("%w: clang did not finish within %s", ErrCompileLimit, lim.timeout)
	case err != nil && memoryExhausted(out):
		return out, fmt.Errorf("%w: clang ran out of its %d MiB of memory", ErrCompileLimit, lim.memory>>20)
	}
	return out, err
}

// memoryExhausted recognizes clang's death by its address-space limit.
func memoryExhausted(out []byte) bool {
	s := string(out)
	return strings.Contains(s, "out of memory") || strings.Contains(s, "bad_alloc") ||
		strings.Contains(s, "Cannot allocate memory") || strings.Contains(s, "LLVM ERROR: out of memory")
}

// cappedBuffer keeps the first max bytes written to it and counts the rest.
type cappedBuffer struct {
	bytes.Buffer
	max     int
	dropped int
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room < len(p) {
		b.dropped += len(p) - max(room, 0)
		if room > 0 {
			b.Buffer.Write(p[:room])
		}
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

// Bytes returns what was kept, with a note when output was dropped.
func (b *cappedBuffer) Bytes() []byte {
	if b.dropped == 0 {
		return b.Buffer.Bytes()
	}
	return append(b.Buffer.Bytes(), fmt.Sprintf("\n[augur: %d more bytes of compiler output omitted]\n", b.dropped)...)
}
