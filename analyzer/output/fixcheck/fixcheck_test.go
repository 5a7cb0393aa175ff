package fixcheck_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"augur/analyzer"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/build"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/frontend/load"
	"augur/analyzer/output/fixcheck"
	"augur/analyzer/output/report"
	"augur/internal/testutil"
)

var cacheDir string

func TestMain(m *testing.M) { testutil.MainWithCache(m, &cacheDir) }

func buildOpts() build.Options { return build.Options{CacheDir: cacheDir} }

func mustLoad(t testing.TB, path string) *ir.Program {
	t.Helper()
	prog, err := load.Program([]string{path}, buildOpts())
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// options are the analysis's settings for the program at path, its fixes'
// verification included.
func options(path string) analyzer.Options {
	return analyzer.Options{Run: vm.Config{Args: []string{filepath.Base(path)}, MaxInstructions: 20_000_000},
		Sources: []string{path}, Seed: 1, Workers: 1}
}

// fixComment is a test program's `fix: KIND [LOCK] verified|rejected|refused`
// comment, on the line the fix changes: a lock fix's statement (LOCK as
// the fix names the mutex: `bank`, `acct->lock`), an atomic fix's
// declaration; a refused fix's on the first line its title names.
var fixComment = regexp.MustCompile(`fix: (lock|atomic|join|publish)(?: (\S+))? (verified|rejected|refused)`)

// expectedFixes reads the fix comments of a program as "LINE KIND LOCK
// VERDICT" strings, sorted.
func expectedFixes(t testing.TB, path string) []string {
	var out []string
	for _, c := range testutil.Comments(t, path, fixComment) {
		out = append(out, fmt.Sprintf("%d %s %s %s", c.Line, c.Match[1], c.Match[2], c.Match[3]))
	}
	sort.Strings(out)
	return out
}

// lockCall finds the mutex a lock fix takes, in each way it takes one.
var lockCall = regexp.MustCompile(`pthread_mutex_lock\(&([^;]+)\);|guard\(([^;]+)\);|^\s*(\S+)\.lock\(\);`)

// titleLine is the first line a fix's title names: "(file.c:26-28)".
var titleLine = regexp.MustCompile(`\([^():]+:(\d+)`)

// fixKey is a fix as the annotations write it, at line.
func fixKey(f report.Fix, line int) string {
	lock := ""
	if f.Kind == "lock" && len(f.Edits) > 0 {
		if m := lockCall.FindStringSubmatch(f.Edits[0].Insert); m != nil {
			lock = m[1] + m[2] + m[3]
		}
	}
	verdict := map[bool]string{true: "verified", false: "rejected"}[f.Verified]
	if strings.HasPrefix(f.Checked, "refused: ") {
		verdict = "refused"
	}
	return fmt.Sprintf("%d %s %s %s", line, f.Kind, lock, verdict)
}

// fixKeys are the fixes of a report as the annotations write them, each
// once, sorted; each fix is also handed to each. A fix's annotation is
// on a line one of its edits changes (a publish fix also changes the
// declaration: the one want has, else the first), a refused fix's on the
// first line its title names.
func fixKeys(rep *report.Report, want []string, each func(object string, f report.Fix)) []string {
	var got []string
	seen := map[string]bool{}
	for _, r := range rep.Races {
		for _, f := range r.Fixes {
			var key string
			if m := titleLine.FindStringSubmatch(f.Title); len(f.Edits) == 0 && m != nil {
				line, _ := strconv.Atoi(m[1])
				key = fixKey(f, line)
			}
			for _, e := range f.Edits {
				// The first line it changes (not an insertion), unless
				// another of its lines is the one annotated.
				if k := fixKey(f, e.Line); slices.Contains(want, k) || key == "" && len(e.Old) > 0 {
					key = k
				}
			}
			if key == "" && len(f.Edits) > 0 {
				key = fixKey(f, f.Edits[0].Line)
			}
			if !seen[key] {
				seen[key] = true
				got = append(got, key)
			}
			each(r.Object, f)
		}
	}
	sort.Strings(got)
	return got
}

// TestFixesOnAnnotatedPrograms proposes and verifies the fixes of every
// program in testdata/fix and matches them against its comments: each
// expected fix is proposed and verified or rejected as annotated, and no
// other is proposed. Every verified fix's diff is then applied with
// patch -p0, as a developer would, and the patched program is analyzed
// again: it has no race on the fixed variable.
func TestFixesOnAnnotatedPrograms(t *testing.T) {
	if _, err := exec.LookPath("patch"); err != nil {
		t.Fatal("patch is not installed (make setup installs it)")
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range testutil.Programs("../../../testdata/fix") {
		path, _ := filepath.Abs(path) // named from root in the diff
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			prog := mustLoad(t, path)
			opts := options(path)
			res, err := analyzer.Analyze(context.Background(), prog, opts, analyzer.Observer{})
			if err != nil {
				t.Fatal(err)
			}
			fixcheck.Suggest(context.Background(), res, buildOpts(), prog)
			want := expectedFixes(t, path)
			rep := report.FromResult(res, root) // diffs name the file from the repository's root
			got := fixKeys(rep, want, func(object string, f report.Fix) {
				t.Logf("%s: %s: %s", object, f.Title, f.Checked)
				if f.Verified {
					checkPatched(t, root, path, object, f.Diff)
				}
			})
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("fixes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// checkPatched copies path to where it lies under root in a new
// directory, applies diff there with patch -p0, and analyzes the result:
// it must have no race on object.
func checkPatched(t *testing.T, root, path, object, diff string) {
	t.Helper()
	dir := t.TempDir()
	rel, err := filepath.Rel(root, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cp := filepath.Join(dir, rel)
	if err := os.WriteFile(cp, src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("patch", "-p0", "--quiet")
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(diff)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("patch -p0: %v\n%s\n%s", err, out, diff)
	}
	fixed := mustLoad(t, cp)
	res, err := analyzer.Analyze(context.Background(), fixed, options(cp), analyzer.Observer{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Races {
		if r.Object == object {
			t.Errorf("the patched program still races on %s (%s and %s)", object, r.First.Loc, r.Second.Loc)
		}
	}
}
