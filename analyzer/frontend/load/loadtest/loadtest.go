// Package loadtest loads the test programs of tests: a program that does
// not build fails the test that needs it, with the compiler's message.
package loadtest

import (
	"testing"

	"augur/analyzer/frontend/build"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/frontend/load"
	"augur/internal/testutil"
)

// Program builds and lowers files (load.Program) with the bitcode cache
// under cacheDir and the compile flags their `// cflags:` lines give (as
// the differential test builds them), failing t when they do not build.
func Program(t testing.TB, cacheDir string, files ...string) *ir.Program {
	t.Helper()
	prog, err := load.Program(files, build.Options{CacheDir: cacheDir, Flags: cflags(files)})
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// cflags are the compile flags of files' `// cflags:` lines.
func cflags(files []string) []string {
	var out []string
	for _, f := range files {
		out = append(out, testutil.CFlags(f)...)
	}
	return out
}
