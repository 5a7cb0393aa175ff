// Package testutil holds what several packages' tests share: a compile
// cache for the whole test binary, reading a test program's race
// expectations, and locating a race's accesses in it.
package testutil

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
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

// raceComment is a race expectation in a test program: `// race: NAME
// CATEGORY [WEAK-CATEGORY]` on both endpoint lines of one expected race.
// A line with two races (`a++; b++;`) carries two such comments.
var raceComment = regexp.MustCompile(`//\s*race:\s*(\S+)(?:\s+(\S+))?(?:\s+(\S+))?`)

// RaceAnnotation is one race expectation comment.
type RaceAnnotation struct {
	Line     int // 1-based
	Name     string
	Category string // empty when the comment names no category
	// Weak is the category under the weak memory model, when the comment
	// names a second one (testdata/weak); Category is then sequential
	// consistency's.
	Weak string
}

// RaceAnnotations reads the race expectation comments of a test program.
func RaceAnnotations(t testing.TB, path string) []RaceAnnotation {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []RaceAnnotation
	for i, line := range strings.Split(string(data), "\n") {
		for _, m := range raceComment.FindAllStringSubmatch(line, -1) {
			out = append(out, RaceAnnotation{Line: i + 1, Name: m[1], Category: m[2], Weak: m[3]})
		}
	}
	return out
}

// Programs lists the C and C++ test programs in dir (*.c, *.cpp), sorted.
func Programs(dir string) []string {
	c, _ := filepath.Glob(filepath.Join(dir, "*.c"))
	cpp, _ := filepath.Glob(filepath.Join(dir, "*.cpp"))
	out := append(c, cpp...)
	sort.Strings(out)
	return out
}
