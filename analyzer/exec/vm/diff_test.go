package vm_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/solver"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/build"
	"augur/analyzer/frontend/load"
)

// A differential test program is testdata/run/NAME.c (or .cpp), or a
// directory testdata/run/NAME/ whose sources form one program; the demo
// programs in testdata/demo are checked the same way. Directives in
// the first source's comments:
//
//	// args: a b c      command-line arguments
//	// stdin: text      standard input (\n for newlines)
//	// file: NAME=text  a file the program may open (\n for newlines)
//	// cflags: -std=c++20  compile flags, for the native build and augur's
//	// ldflags: -latomic   link flags of the native build alone (augur's
//	                       runtime has what those libraries give)
var directive = regexp.MustCompile(`(?m)^//\s*(args|stdin|file|cflags|ldflags):\s?(.*)$`)

type diffCase struct {
	name    string
	sources []string
	args    []string
	stdin   string
	files   map[string][]byte
	cflags  []string
	ldflags []string
}

func loadCases(t *testing.T) []diffCase {
	var cases []diffCase
	for _, dir := range []string{"../../../testdata/run", "../../../testdata/demo"} {
		cases = append(cases, loadDir(t, dir)...)
	}
	return cases
}

func loadDir(t *testing.T, dir string) []diffCase {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var cases []diffCase
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		c := diffCase{name: strings.TrimSuffix(e.Name(), filepath.Ext(e.Name()))}
		if e.IsDir() {
			srcs, _ := filepath.Glob(filepath.Join(path, "*.c*"))
			c.sources = srcs
		} else if build.IsSource(path) {
			c.sources = []string{path}
		} else {
			continue
		}
		text, err := os.ReadFile(c.sources[0])
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range directive.FindAllStringSubmatch(string(text), -1) {
			switch m[1] {
			case "args":
				c.args = strings.Fields(m[2])
			case "cflags":
				c.cflags = strings.Fields(m[2])
			case "ldflags":
				c.ldflags = strings.Fields(m[2])
			case "stdin":
				c.stdin = strings.ReplaceAll(m[2], `\n`, "\n")
			case "file":
				name, text, _ := strings.Cut(m[2], "=")
				if c.files == nil {
					c.files = map[string][]byte{}
				}
				c.files[name] = []byte(strings.ReplaceAll(text, `\n`, "\n"))
			}
		}
		cases = append(cases, c)
	}
	return cases
}

type outcome struct {
	stdout, stderr string
	status         int
}

func runNative(t *testing.T, c diffCase, dir string) outcome {
	bin := filepath.Join(dir, c.name)
	compiler := "clang-14"
	for _, s := range c.sources {
		if !strings.HasSuffix(s, ".c") {
			compiler = "clang++-14"
		}
	}
	args := append([]string{"-g", "-O0", "-fno-stack-protector", "-U_FORTIFY_SOURCE", "-w", "-o", bin}, c.sources...)
	if compiler == "clang++-14" {
		args = append(args, "-std=c++17")
	}
	args = append(append(append(args, c.cflags...), "-lpthread", "-lm"), c.ldflags...)
	if out, err := exec.Command(compiler, args...).CombinedOutput(); err != nil {
		t.Fatalf("native build: %v\n%s", err, out)
	}
	for name, data := range c.files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, c.args...)
	cmd.Args[0] = c.name
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(c.stdin)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	status := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		status = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			status = 128 + int(ws.Signal()) // as a shell reports a signal death
		}
	} else if err != nil {
		t.Fatalf("native run: %v", err)
	}
	return outcome{so.String(), se.String(), status}
}

func runAugur(t *testing.T, c diffCase, cache string) (outcome, *vm.Result) {
	return runAugurIn(t, c, cache, nil)
}

// runAugurIn is runAugur with a symbolic state (sym) or without (nil).
func runAugurIn(t *testing.T, c diffCase, cache string, sym *vm.Symbolic) (outcome, *vm.Result) {
	prog, err := load.Program(c.sources, build.Options{CacheDir: cache, Flags: c.cflags})
	if err != nil {
		t.Fatalf("augur load: %v", err)
	}
	var so, se bytes.Buffer
	m, err := vm.New(prog, vm.Config{Models: libc.Models(), Args: append([]string{c.name}, c.args...), Stdin: []byte(c.stdin),
		Stdout: &so, Stderr: &se, MaxInstructions: 500_000_000, Files: c.files,
		Limits: vm.Limits{MaxMemory: 1 << 30}, Symbolic: sym})
	if err != nil {
		t.Fatalf("augur: %v", err)
	}
	res := m.Run()
	if res.Term.Kind != vm.TermExit {
		t.Logf("augur termination:\n%s", res.Term.Report())
	}
	return outcome{so.String(), se.String(), res.Term.ExitCode()}, res
}

// TestDifferential runs every program natively and under augur and compares
// stdout, stderr and the exit status exactly.
func TestDifferential(t *testing.T) {
	if _, err := build.FindClang(); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	cases := loadCases(t)
	if len(cases) == 0 {
		t.Fatal("no programs in testdata/run")
	}
	for _, c := range cases {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			want := runNative(t, c, t.TempDir())
			got, _ := runAugur(t, c, cache)
			if got.stdout != want.stdout {
				t.Errorf("stdout differs\n--- native\n%s\n--- augur\n%s", want.stdout, got.stdout)
			}
			if got.stderr != want.stderr {
				t.Errorf("stderr differs\n--- native\n%s\n--- augur\n%s", want.stderr, got.stderr)
			}
			if got.status != want.status {
				t.Errorf("exit status: native %d, augur %d", want.status, got.status)
			}
		})
	}
}

// TestRegisterModesAgree runs every differential program with a symbolic
// state, which no input of theirs makes use of, and checks that it prints,
// exits and counts instructions exactly as the concrete run does: the
// interpreter's loop is compiled once for each register mode (regmode.go),
// and TestDifferential checks only the concrete one against native runs.
func TestRegisterModesAgree(t *testing.T) {
	cache := t.TempDir()
	for _, c := range loadCases(t) {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			want, wres := runAugurIn(t, c, cache, nil)
			got, gres := runAugurIn(t, c, cache, vm.NewSymbolic(solver.New(10*time.Second)))
			if got != want {
				t.Errorf("symbolic mode: %+v\nconcrete mode: %+v", got, want)
			}
			if gres.Instructions != wres.Instructions {
				t.Errorf("instructions: symbolic mode %d, concrete mode %d", gres.Instructions, wres.Instructions)
			}
		})
	}
}
