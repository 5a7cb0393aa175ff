// Package build turns C and C++ sources into LLVM bitcode with clang-14: it
// finds the compiler, compiles one translation unit at a time into a
// content-addressed cache, reports compiler errors as structured values, and
// adds the bitcode of augur's C runtime so the result can be linked and
// interpreted.
package build

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
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
		out, err := exec.Command(path, "--version").Output()
		if err != nil {
			return nil, fmt.Errorf("run %s --version: %w", path, err)
		}
		first, _, _ := strings.Cut(string(out), "\n")
		return &Clang{Path: path, Version: strings.TrimSpace(first)}, nil
	}
	if env := os.Getenv("AUGUR_CLANG"); env != "" {
		return nil, fmt.Errorf("%w: AUGUR_CLANG=%s is not an executable; unset it or run `make setup`", ErrNoCompiler, env)
	}
	return nil, fmt.Errorf("%w on PATH or in /usr/lib/llvm-14/bin; run `make setup` (or set AUGUR_CLANG)", ErrNoCompiler)
}

// run executes clang with args and returns its combined diagnostics output.
func (c *Clang) run(args ...string) (stderr []byte, err error) {
	cmd := exec.Command(c.Path, args...)
	var buf bytes.Buffer
	cmd.Stderr = &buf
	cmd.Stdout = &buf
	err = cmd.Run()
	return buf.Bytes(), err
}
