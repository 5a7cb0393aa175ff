// Package loadtest loads the test programs of tests: a program that does
// not build fails the test that needs it, with the compiler's message.
package loadtest

import (
	"testing"

	"augur/analyzer/frontend/build"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/frontend/load"
)

// Program builds and lowers files (load.Program) with the bitcode cache
// under cacheDir, failing t when they do not build.
func Program(t testing.TB, cacheDir string, files ...string) *ir.Program {
	t.Helper()
	prog, err := load.Program(files, build.Options{CacheDir: cacheDir})
	if err != nil {
		t.Fatal(err)
	}
	return prog
}
