package ir_test

import (
	"context"
	"testing"

	"augur/analyzer/build"
	"augur/analyzer/ir"
)

func TestLoadDemo(t *testing.T) {
	prog, err := build.Build(context.Background(), []string{"../../testdata/demo/bank.c"}, build.Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	p, err := ir.Load(prog.All())
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
