package archtest

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "augur/"

// imports returns, for every package of the module under root, the module
// packages its non-test files import.
func imports(t *testing.T, root string) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules" || n == "vscode-extension") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		if out[pkg] == nil {
			out[pkg] = map[string]bool{}
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(p, module) {
				out[pkg][strings.TrimPrefix(p, module)] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var edge = regexp.MustCompile(`^\s*(\S+) --> (\S+)\s*$`)

// TestArchitectureGraphIsCurrent compares the mermaid graph of
// docs/architecture.md with the imports of the code.
func TestArchitectureGraphIsCurrent(t *testing.T) {
	root := filepath.Join("..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, line := range strings.Split(string(doc), "\n") {
		if m := edge.FindStringSubmatch(line); m != nil {
			documented[m[1]+" --> "+m[2]] = true
		}
	}
	actual := map[string]bool{}
	for pkg, deps := range imports(t, root) {
		if strings.HasPrefix(pkg, "internal/archtest") || pkg == "internal/pin" {
			continue
		}
		for d := range deps {
			actual[pkg+" --> "+d] = true
		}
	}
	var missing, stale []string
	for e := range actual {
		if !documented[e] {
			missing = append(missing, e)
		}
	}
	for e := range documented {
		if !actual[e] {
			stale = append(stale, e)
		}
	}
	sort.Strings(missing)
	sort.Strings(stale)
	if len(missing) > 0 || len(stale) > 0 {
		t.Errorf("docs/architecture.md's package graph is out of date:\nimported but not drawn:\n  %s\ndrawn but not imported:\n  %s",
			strings.Join(missing, "\n  "), strings.Join(stale, "\n  "))
	}
}

// stages are the analyzer's folders in the order of its pipeline: the
// front end makes the program, execution runs it (concretely or
// symbolically), detection finds the races of its executions, judgement
// classifies them, and output says what was found.
var stages = []string{"analyzer/frontend", "analyzer/exec", "analyzer/detect", "analyzer/judge", "analyzer/output"}

// stageOf returns the index of the stage pkg belongs to, or -1.
func stageOf(pkg string) int {
	for i, s := range stages {
		if strings.HasPrefix(pkg+"/", s+"/") {
			return i
		}
	}
	return -1
}

// TestDependenciesPointOneWay checks the rules of the layering that the
// compiler's ban on cycles does not: the analyzer never imports a front
// end; a stage imports no later stage, and only output, which runs after
// a whole analysis (fixcheck analyzes the changed program again), imports
// the analyzer's root; within a stage, the interpreter imports nothing
// built on it and the program's data nothing that makes it.
func TestDependenciesPointOneWay(t *testing.T) {
	banned := map[string][]string{
		"analyzer":               {"lsp", "cmd/"},
		"analyzer/exec/vm":       {"analyzer/exec/symex", "analyzer/exec/libc"},
		"analyzer/frontend/ir":   {"analyzer/frontend/bitcode", "analyzer/frontend/build", "analyzer/frontend/resolve"},
		"analyzer/exec/memmodel": {"analyzer/exec/vm"},
	}
	pkgs := imports(t, filepath.Join("..", ".."))
	for prefix := range banned {
		if pkgs[prefix] == nil {
			t.Errorf("no package %s: the rules name packages that moved", prefix)
		}
	}
	populated := make([]bool, len(stages))
	for pkg, deps := range pkgs {
		from := stageOf(pkg)
		if from >= 0 {
			populated[from] = true
		}
		for d := range deps {
			if to := stageOf(d); from >= 0 && to > from {
				t.Errorf("%s (%s) imports %s, of a later stage (%s)", pkg, stages[from], d, stages[to])
			}
			if d == "analyzer" && from >= 0 && stages[from] != "analyzer/output" {
				t.Errorf("%s imports the analyzer's root, which runs every stage", pkg)
			}
		}
		for prefix, forbidden := range banned {
			if pkg != prefix && !strings.HasPrefix(pkg, prefix+"/") {
				continue
			}
			for d := range deps {
				for _, f := range forbidden {
					if strings.HasPrefix(d, f) {
						t.Errorf("%s imports %s", pkg, d)
					}
				}
			}
		}
	}
	for i, ok := range populated {
		if !ok {
			t.Errorf("stage %s holds no package", stages[i])
		}
	}
}
