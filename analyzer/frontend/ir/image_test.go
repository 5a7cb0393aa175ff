package ir_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"augur/analyzer/frontend/bitcode"
	"augur/analyzer/frontend/build"
	"augur/analyzer/frontend/ir"
)

// BenchmarkDecodeProgram decodes a C hello world with augur's C library,
// the program cache's work in every warm `augur run`.
func BenchmarkDecodeProgram(b *testing.B) {
	dir := b.TempDir()
	src := filepath.Join(dir, "hello.c")
	os.WriteFile(src, []byte("#include <stdio.h>\nint main(void) { puts(\"hello\"); return 0; }\n"), 0o644)
	bc, err := build.Build(context.Background(), []string{src}, build.Options{CacheDir: dir})
	if err != nil {
		b.Fatal(err)
	}
	p, err := bitcode.LoadNamed(bc.All(), bc.Names())
	if err != nil {
		b.Fatal(err)
	}
	enc := ir.EncodeProgram(p)
	insts := 0
	for _, fn := range p.Funcs {
		insts += len(fn.Insts)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := ir.DecodeProgram(enc); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(enc)), "bytes")
	b.ReportMetric(float64(insts), "insts")
}
