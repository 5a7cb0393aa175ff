package bitcode_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"augur/analyzer/frontend/bitcode"
	"augur/analyzer/frontend/build"
)

func TestLoadDemo(t *testing.T) {
	prog, err := build.Build(context.Background(), []string{"../../../testdata/demo/bank.c"}, build.Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	p, err := bitcode.Load(prog.All())
	if err != nil {
		t.Fatal(err)
	}
	main := p.Func("main")
	if main == nil || main.Decl || len(main.Insts) == 0 {
		t.Fatalf("main not lowered: %+v", main)
	}
	if len(p.Messages) != 0 {
		t.Errorf("unsupported constructs: %v", p.Messages)
	}
	// Every instruction of main has a source position in bank.c.
	for _, in := range main.Insts {
		if loc := p.Loc(in.Loc); loc.Line == 0 {
			t.Errorf("%v without location", in.Op)
		}
	}
	g := p.GlobalByName("balance")
	if g == nil || g.Size != 64 {
		t.Fatalf("balance: %+v", g)
	}
}

// Bitcode LLVM cannot read, and modules it cannot link, are errors that
// name the file; LLVM's default handling of them (print and exit the
// process) would have ended this test, and the language server with it.
func TestBadBitcodeIsAnError(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.bc")
	os.WriteFile(junk, []byte("this is not bitcode"), 0o644)
	if _, err := bitcode.Load([]string{junk}); err == nil || !strings.Contains(err.Error(), "load "+junk+": ") {
		t.Errorf("junk bitcode: %v", err)
	}
	truncated := filepath.Join(dir, "cut.bc")
	os.WriteFile(truncated, []byte("BC\xc0\xde\x35\x14\x00\x00\x05\x00\x00\x00"), 0o644)
	if _, err := bitcode.Load([]string{truncated}); err == nil || !strings.Contains(err.Error(), "cut.bc") {
		t.Errorf("truncated bitcode: %v", err)
	}
	a, b := filepath.Join(dir, "a.c"), filepath.Join(dir, "b.c")
	os.WriteFile(a, []byte("int x = 1;\nint main(void) { return x; }\n"), 0o644)
	os.WriteFile(b, []byte("int x = 2;\n"), 0o644)
	prog, err := build.Build(context.Background(), []string{a, b}, build.Options{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bitcode.LoadNamed(prog.All(), prog.Names()); err == nil || !strings.Contains(err.Error(), "link "+b+": Linking globals named 'x'") {
		t.Errorf("two definitions of x: %v", err)
	}
}
