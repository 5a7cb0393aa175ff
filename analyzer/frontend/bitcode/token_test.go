package bitcode_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"augur/analyzer/frontend/bitcode"
)

// C++20 coroutines reach the loader lowered by clang, with the coroutine
// intrinsics left declared and unused; they return tokens, which augur
// does not hold. An unused declaration loads, and a used one is an error
// that names the type, not a panic in go-llvm's type printer.
func TestTokensLoadUnusedAndFailNamedWhenUsed(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	unused := write("unused.ll", `
declare token @llvm.coro.id(i32, i8*, i8*, i8*)
define i32 @main() {
  ret i32 0
}
`)
	p, err := bitcode.Load([]string{unused})
	if err != nil {
		t.Fatalf("a module that only declares a token intrinsic: %v", err)
	}
	if p.Func("main") == nil {
		t.Error("main was not lowered")
	}
	used := write("used.ll", `
declare token @llvm.coro.id(i32, i8*, i8*, i8*)
define i32 @main() {
  %id = call token @llvm.coro.id(i32 0, i8* null, i8* null, i8* null)
  ret i32 0
}
`)
	_, err = bitcode.Load([]string{used})
	if err == nil || !strings.Contains(err.Error(), "values of type token are not supported") {
		t.Errorf("a module that calls a token intrinsic: %v", err)
	}
	if err != nil && strings.Contains(err.Error(), "internal error") {
		t.Errorf("the loader panicked: %v", err)
	}
}
