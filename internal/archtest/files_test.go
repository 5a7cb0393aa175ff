package archtest

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var (
	filesHeading = regexp.MustCompile("^### `([^`]+)`\\s*$")
	fileCell     = regexp.MustCompile("`([A-Za-z0-9_]+\\.go)`")
)

// documentedFiles reads the file map of docs/architecture.md (its section
// "Files, package by package"): for each package heading, the files its
// table's first column names.
func documentedFiles(t *testing.T, doc string) map[string]map[string]bool {
	t.Helper()
	_, section, ok := strings.Cut(doc, "\n## Files, package by package\n")
	if !ok {
		t.Fatal("docs/architecture.md has no section \"Files, package by package\"")
	}
	if i := strings.Index(section, "\n## "); i >= 0 {
		section = section[:i]
	}
	out := map[string]map[string]bool{}
	pkg := ""
	for _, line := range strings.Split(section, "\n") {
		if m := filesHeading.FindStringSubmatch(line); m != nil {
			pkg = m[1]
			out[pkg] = map[string]bool{}
			continue
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(line, "|"), "|")
		if pkg == "" || !strings.HasPrefix(line, "|") {
			continue
		}
		for _, m := range fileCell.FindAllStringSubmatch(first, -1) {
			out[pkg][m[1]] = true
		}
	}
	return out
}

// TestFileMapIsCurrent checks that the file map of docs/architecture.md
// names every non-test file of every package that has more than one, under
// its package, and names no file that is not there.
func TestFileMapIsCurrent(t *testing.T) {
	root := filepath.Join("..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	documented := documentedFiles(t, string(doc))
	actual := map[string][]string{}
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			rel, _ := filepath.Rel(root, filepath.Dir(path))
			actual[filepath.ToSlash(rel)] = append(actual[filepath.ToSlash(rel)], d.Name())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var problems []string
	for pkg, files := range actual {
		if len(files) < 2 {
			continue
		}
		for _, f := range files {
			if !documented[pkg][f] {
				problems = append(problems, "not listed: "+pkg+"/"+f)
			}
		}
	}
	for pkg, files := range documented {
		for f := range files {
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(pkg), f)); err != nil {
				problems = append(problems, "listed but gone: "+pkg+"/"+f)
			}
		}
	}
	sort.Strings(problems)
	if len(problems) > 0 {
		t.Errorf("docs/architecture.md's file map is out of date:\n  %s", strings.Join(problems, "\n  "))
	}
}
