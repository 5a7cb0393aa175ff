// Package testutil holds what several packages' tests share: a compile
// cache for the whole test binary, and reading the expectations a test
// program's comments write (its races, arguments and standard input).
// Checking races against them is package racetest's.
package testutil

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
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

// raceComment is a race expectation in a test program: `// race: NAME
// CATEGORY [WEAK-CATEGORY]` on both endpoint lines of one expected race.
// A line with two races (`a++; b++;`) carries two such comments.
var raceComment = regexp.MustCompile(`//\s*race:\s*(\S+)(?:\s+([^\s/]\S*))?(?:\s+([^\s/]\S*))?`)

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
	var out []RaceAnnotation
	for _, c := range Comments(t, path, raceComment) {
		out = append(out, RaceAnnotation{Line: c.Line, Name: c.Match[1], Category: c.Match[2], Weak: c.Match[3]})
	}
	return out
}

// Comment is one match of an expectation comment in a test program.
type Comment struct {
	Line  int      // 1-based
	Match []string // the submatches, as FindStringSubmatch gives them
}

// Comments finds every match of re in the program at path, line by
// line: the expectations its comments write (races, inversions, fixes,
// patterns).
func Comments(t testing.TB, path string, re *regexp.Regexp) []Comment {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []Comment
	for i, line := range strings.Split(string(data), "\n") {
		for _, m := range re.FindAllStringSubmatch(line, -1) {
			out = append(out, Comment{Line: i + 1, Match: m})
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

// RacePairs reads a test program's expected races as unordered pairs of
// endpoint lines (equal for a race of a line with itself), with how many
// races each pair holds.
func RacePairs(t testing.TB, path string) map[[2]int]int {
	t.Helper()
	lines := map[string][]int{}
	for _, a := range RaceAnnotations(t, path) {
		lines[a.Name] = append(lines[a.Name], a.Line)
	}
	want := map[[2]int]int{}
	for name, ls := range lines {
		switch len(ls) {
		case 1:
			want[[2]int{ls[0], ls[0]}]++
		case 2:
			want[[2]int{min(ls[0], ls[1]), max(ls[0], ls[1])}]++
		default:
			t.Fatalf("%s: race %s annotated on %d lines, want 1 or 2", path, name, len(ls))
		}
	}
	return want
}

// directive is a run directive in a test program's comments: `// args: a
// b c` (command-line arguments), `// stdin: text` (standard input, \n
// for newlines).
var directive = regexp.MustCompile(`(?m)^//\s*(args|stdin):\s?(.*)$`)

// Directives reads the arguments and standard input a test program's
// directives give it (none when it has none).
func Directives(t testing.TB, path string) (args []string, stdin string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range directive.FindAllStringSubmatch(string(data), -1) {
		switch m[1] {
		case "args":
			args = strings.Fields(m[2])
		case "stdin":
			stdin = strings.ReplaceAll(m[2], `\n`, "\n")
		}
	}
	return args, stdin
}

// cflagsLine is a test program's compile flags: `// cflags: -std=c++20`.
var cflagsLine = regexp.MustCompile(`(?m)^//\s*cflags:\s?(.*)$`)

// CFlags reads the compile flags a test program's `// cflags:` lines give
// (none when it has none, or cannot be read: its build then fails), which
// every build of it takes, as the differential test's do.
func CFlags(path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var flags []string
	for _, m := range cflagsLine.FindAllStringSubmatch(string(data), -1) {
		flags = append(flags, strings.Fields(m[1])...)
	}
	return flags
}
