// Package testutil holds what several packages' tests share: a compile
// cache for the whole test binary, and locating a race's accesses in a test
// program.
package testutil

import (
	"os"
	"path/filepath"
	"testing"

	"augur/analyzer/race"
)

// MainWithCache runs a package's tests with *dir set to a fresh bitcode
// cache directory, removed afterwards.
func MainWithCache(m *testing.M, dir *string) {
	d, err := os.MkdirTemp("", "augur-test-")
	if err != nil {
		panic(err)
	}
	*dir = d
	code := m.Run()
	os.RemoveAll(d)
	os.Exit(code)
}

// LineIn returns the line of the first frame of an endpoint's stack that
// is in file (the racing access may sit in a runtime function called from
// it), or 0.
func LineIn(e race.Endpoint, file string) int {
	for _, f := range e.Stack {
		if filepath.Base(f.Loc.File) == filepath.Base(file) {
			return f.Loc.Line
		}
	}
	return 0
}
