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

// A class's complete-object constructor and destructor (C1, D1) are
// aliases of their base-object forms in clang's output: a file that
// defines a class's members defines those names too, so that project
// completion takes it for a program that constructs the class, and does
// not search the project for names the C++ runtime defines
// (std::ios_base::Init's, in every program that includes <iostream>).
func TestSymbolsCountAliasesAsDefinitions(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "counter.cpp")
	code := "struct Counter { Counter(); ~Counter(); int n; };\nCounter::Counter() : n(0) {}\nCounter::~Counter() {}\n"
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	bc, err := build.CompileTU(context.Background(), src, build.Options{CacheDir: dir}, "")
	if err != nil {
		t.Fatal(err)
	}
	s, err := bitcode.ReadSymbols(bc)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"_ZN7CounterC1Ev", "_ZN7CounterC2Ev", "_ZN7CounterD1Ev", "_ZN7CounterD2Ev"} {
		if !slices.Contains(s.Defined, name) {
			t.Errorf("%s not among the defined symbols %v", name, s.Defined)
		}
	}
}
