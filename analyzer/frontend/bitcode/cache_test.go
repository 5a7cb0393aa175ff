package bitcode_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"augur/analyzer/frontend/bitcode"
	"augur/analyzer/frontend/build"
)

// A program loaded from the cache of lowered programs is the program
// LoadNamed gives: the same code, globals and locations (CodeHash, Key),
// the same names, calls that lead to the same functions, and the same
// compact form (ir.Code), which the cache does not store.
func TestLoadCachedIsTheSameProgram(t *testing.T) {
	for _, src := range []string{"../../../testdata/demo/bank.c"} {
		if _, err := os.Stat(src); err != nil {
			continue
		}
		bc, err := build.Build(context.Background(), []string{src}, build.Options{CacheDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := bitcode.LoadNamed(bc.All(), bc.Names())
		if err != nil {
			t.Fatal(err)
		}
		cache := t.TempDir()
		for round := range 2 { // the first writes the cache, the second reads it
			p, err := bitcode.LoadCached(bc.All(), bc.Names(), cache)
			if err != nil {
				t.Fatal(err)
			}
			if p.CodeHash() != fresh.CodeHash() || p.Key() != fresh.Key() {
				t.Fatalf("%s round %d: a different program", src, round)
			}
			for _, fn := range fresh.Funcs {
				got := p.Func(fn.Name)
				if got == nil || got.ID != fn.ID || p.FuncOf[fn.ID] != got {
					t.Fatalf("%s: function %s", src, fn.Name)
				}
				if !slices.Equal(got.Code(), fn.Code()) {
					t.Fatalf("%s: %s's compact form differs from the lowered one's", src, fn.Name)
				}
				for k, in := range fn.Insts {
					if (in.Callee == nil) != (got.Insts[k].Callee == nil) ||
						in.Callee != nil && got.Insts[k].Callee != p.FuncOf[in.Callee.ID] {
						t.Fatalf("%s: %s instruction %d calls elsewhere", src, fn.Name, k)
					}
				}
			}
			for _, g := range fresh.Globals {
				if got := p.GlobalByName(g.Name); got == nil || got.ID != g.ID || p.GlobalOf[g.ID] != got {
					t.Fatalf("%s: global %s", src, g.Name)
				}
			}
		}
		if files, _ := filepath.Glob(filepath.Join(cache, "program", "*.prog")); len(files) != 1 {
			t.Errorf("%s: %d cached programs, want 1", src, len(files))
		}
	}
}
