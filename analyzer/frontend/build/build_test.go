package build

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCompileErrorIsStructured(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "bad.c")
	write(t, src, "int main(void) {\n\tint x = ;\n\treturn undefined_name;\n}\n")
	_, err := Build(context.Background(), []string{src}, Options{CacheDir: t.TempDir()})
	var ce *CompileError
	if !errors.As(err, &ce) {
		t.Fatalf("want *CompileError, got %v", err)
	}
	var errs []Diagnostic
	for _, d := range ce.Diagnostics {
		if d.Severity == "error" {
			errs = append(errs, d)
		}
	}
	if len(errs) != 2 {
		t.Fatalf("want 2 errors, got %+v", ce.Diagnostics)
	}
	if errs[0].File != src || errs[0].Line != 2 || errs[0].Column != 10 || !strings.Contains(errs[0].Message, "expected expression") {
		t.Errorf("first error: %+v", errs[0])
	}
	if errs[1].Line != 3 || !strings.Contains(errs[1].Message, "undefined_name") {
		t.Errorf("second error: %+v", errs[1])
	}
}

func TestMissingCompilerNamesSetup(t *testing.T) {
	t.Setenv("AUGUR_CLANG", "/nonexistent/clang-14")
	_, err := findClang()
	if !errors.Is(err, ErrNoCompiler) || !strings.Contains(err.Error(), "make setup") {
		t.Fatalf("got %v", err)
	}
}

func TestCacheReusesAndInvalidatesOnHeader(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	src := filepath.Join(dir, "main.c")
	hdr := filepath.Join(dir, "value.h")
	write(t, hdr, "#define VALUE 1\n")
	write(t, src, "#include \"value.h\"\nint main(void) { return VALUE; }\n")
	bc1, err := CompileTU(context.Background(), src, Options{CacheDir: cache}, "")
	if err != nil {
		t.Fatal(err)
	}
	st1, _ := os.Stat(bc1)
	bc2, err := CompileTU(context.Background(), src, Options{CacheDir: cache}, "")
	if err != nil {
		t.Fatal(err)
	}
	st2, _ := os.Stat(bc2)
	if bc1 != bc2 || !os.SameFile(st1, st2) { // a compile renames a new file into place
		t.Fatalf("unchanged TU was recompiled: %s %s", bc1, bc2)
	}
	a, _ := os.ReadFile(bc1)
	write(t, hdr, "#define VALUE 2\n")
	bc3, err := CompileTU(context.Background(), src, Options{CacheDir: cache}, "")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(bc3)
	if string(a) == string(b) {
		t.Fatal("header change did not change the compiled bitcode")
	}
}

func TestRejectsUnknownInputs(t *testing.T) {
	_, err := Build(context.Background(), []string{"notes.txt"}, Options{CacheDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "not a C/C++ source") {
		t.Fatalf("got %v", err)
	}
}

// A source and a header whose paths hold spaces (and a '#' and a '$')
// build, and a change to the header is seen: the dependency file escapes
// them and augur reads the escapes.
func TestPathsWithSpaces(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my project #1 $x")
	os.MkdirAll(dir, 0o755)
	hdr := filepath.Join(dir, "the config.h")
	src := filepath.Join(dir, "main file.c")
	os.WriteFile(hdr, []byte("#define ANSWER 42\n"), 0o644)
	os.WriteFile(src, []byte("#include \"the config.h\"\nint main(void) { return ANSWER; }\n"), 0o644)
	cache := t.TempDir()
	p, err := Build(context.Background(), []string{src}, Options{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, in := range p.Inputs {
		found = found || in == hdr
	}
	if !found {
		t.Fatalf("inputs %q lack the header %q", p.Inputs, hdr)
	}
	before, _ := os.ReadFile(p.Bitcode[0])
	os.WriteFile(hdr, []byte("#define ANSWER 43\n"), 0o644)
	q, err := Build(context.Background(), []string{src}, Options{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(q.Bitcode[0]); bytes.Equal(before, after) {
		t.Error("a change to the header reused the old bitcode")
	}
	if got := depPrerequisites("out.bc: a\\ b.c c\\#d.h e$$f.h \\\n  g.h\n"); strings.Join(got, "|") != "a b.c|c#d.h|e$f.h|g.h" {
		t.Errorf("depPrerequisites: %q", got)
	}
}

// The compiler's version is asked once per compiler binary, not once per
// process: the answer is kept in the cache directory while the binary is
// unchanged, and asked again when it changes.
func TestClangVersionIsCached(t *testing.T) {
	t.Setenv("AUGUR_CACHE_DIR", t.TempDir())
	dir := t.TempDir()
	count := filepath.Join(dir, "count")
	fake := filepath.Join(dir, "clang")
	write := func(version string) {
		script := "#!/bin/sh\necho run >> " + count + "\necho '" + version + "'\necho second line\n"
		if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	runs := func() int {
		data, _ := os.ReadFile(count)
		return strings.Count(string(data), "run")
	}
	write("clang version 14.0.6")
	for i := 0; i < 3; i++ {
		v, err := clangVersion(fake)
		if err != nil || v != "clang version 14.0.6" {
			t.Fatalf("clangVersion = %q, %v", v, err)
		}
	}
	if n := runs(); n != 1 {
		t.Errorf("the compiler was asked its version %d times, want 1", n)
	}
	write("clang version 14.0.7 (a longer line, so the size changes)")
	if v, _ := clangVersion(fake); v != "clang version 14.0.7 (a longer line, so the size changes)" || runs() != 2 {
		t.Errorf("after the compiler changed: %q, %d runs", v, runs())
	}
}

// Sources compile side by side, yet the program lists them in the order
// given, and Progress hears of each once; a source that fails does not
// stop the others, and its error is returned.
func TestBuildCompilesInParallelInOrder(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i := range 6 {
		f := filepath.Join(dir, fmt.Sprintf("s%d.c", i))
		os.WriteFile(f, []byte(fmt.Sprintf("int f%d(void) { return %d; }\n", i, i)), 0o644)
		files = append(files, f)
	}
	var calls []int
	p, err := Build(context.Background(), append(files, files[2]), Options{CacheDir: t.TempDir(),
		Progress: func(done, total int) {
			if total != 6 {
				t.Errorf("progress total %d, want 6 (the repeated source once)", total)
			}
			calls = append(calls, done)
		}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Sources, append(files, files[2])) || len(p.Bitcode) != 7 {
		t.Errorf("sources %v", p.Sources)
	}
	if !slices.Equal(calls, []int{1, 2, 3, 4, 5, 6}) {
		t.Errorf("progress %v", calls)
	}
	bad := filepath.Join(dir, "bad.c")
	os.WriteFile(bad, []byte("int g(void) { return nope; }\n"), 0o644)
	_, err = Build(context.Background(), []string{files[0], bad, files[1]}, Options{CacheDir: t.TempDir()})
	var ce *CompileError
	if !errors.As(err, &ce) || !strings.HasSuffix(ce.File, "bad.c") {
		t.Errorf("a failing source among good ones: %v", err)
	}
}

// A manifest from before stamps (hash and path only) still validates by
// hashing, and is stamped then: the next check stats the headers instead
// of hashing them. A header changed right after a compile is hashed
// whatever its stamp says, since a coarse clock could give it the time
// it had.
func TestManifestStamps(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	src := filepath.Join(dir, "main.c")
	write(t, filepath.Join(dir, "value.h"), "#define VALUE 1\n")
	write(t, src, "#include \"value.h\"\nint main(void) { return VALUE; }\n")
	bc, err := CompileTU(context.Background(), src, Options{CacheDir: cache}, "")
	if err != nil {
		t.Fatal(err)
	}
	deps := strings.TrimSuffix(bc, ".bc") + ".deps"
	data, _ := os.ReadFile(deps)
	var old strings.Builder
	for _, e := range parseManifest(data) {
		if !e.stamped {
			t.Fatalf("a new manifest without stamps:\n%s", data)
		}
		fmt.Fprintf(&old, "%s %s\n", e.sum, e.path)
	}
	os.WriteFile(deps, []byte(old.String()), 0o644)
	if !depsUnchanged(deps, nil) {
		t.Fatal("an unstamped manifest of unchanged files is not unchanged")
	}
	data, _ = os.ReadFile(deps)
	for _, e := range parseManifest(data) {
		if !e.stamped {
			t.Errorf("not stamped after the check:\n%s", data)
		}
	}
	write(t, filepath.Join(dir, "value.h"), "#define VALUE 2\n") // same size, a moment later
	if depsUnchanged(deps, nil) {
		t.Error("a header changed right after the manifest was written passed as unchanged")
	}
}

// A Build stats a header its translation units share once, and the next
// Build stats it again: an edit between two builds is seen.
func TestBuildStampsAHeaderOncePerBuild(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	hdr := filepath.Join(dir, "value.h")
	write(t, hdr, "#define VALUE 1\n")
	a, b := filepath.Join(dir, "a.c"), filepath.Join(dir, "b.c")
	write(t, a, "#include \"value.h\"\nint main(void) { return VALUE; }\n")
	write(t, b, "#include \"value.h\"\nint other(void) { return VALUE; }\n")
	old := time.Now().Add(-time.Minute) // older than the manifests by more than stampSlack: stamps are trusted
	os.Chtimes(hdr, old, old)
	build := func() (*Program, *stampMemo) {
		t.Helper()
		memo := &stampMemo{}
		p, err := Build(context.Background(), []string{a, b}, Options{CacheDir: cache, stamps: memo})
		if err != nil {
			t.Fatal(err)
		}
		return p, memo
	}
	first, _ := build()
	_, memo := build()
	if _, ok := memo.m[hdr]; !ok {
		t.Fatalf("the warm build did not stamp %s through its memo: %v", hdr, memo.m)
	}
	was, _ := os.ReadFile(first.Bitcode[0])
	write(t, hdr, "#define VALUE 22\n")
	third, _ := build()
	now, _ := os.ReadFile(third.Bitcode[0])
	if string(was) == string(now) {
		t.Fatal("a header edited between two builds was not seen by the second")
	}
}

// A source's language follows clang's rule: ".c" is C, and every other
// source extension, ".C" among them, is C++ (which clang compiles as C++
// whatever it is told the file is; augur must then link the C++ runtime).
func TestLanguageOfAnExtension(t *testing.T) {
	for path, want := range map[string]bool{"a.c": false, "a.C": true, "a.cc": true, "a.cpp": true, "a.CPP": true,
		"a.cxx": true, "a.c++": true, "a.h": false, "a.txt": false} {
		if got := IsCXX(path); got != want {
			t.Errorf("IsCXX(%q) = %v, want %v", path, got, want)
		}
	}
}
