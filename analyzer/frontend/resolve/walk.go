package resolve

import (
	"io/fs"
	"path/filepath"
	"strings"

	"augur/analyzer/frontend/build"
)

// maxCandidates bounds the sources Walk lists, and maxVisited the
// entries it looks at: a directory holding more is not one program's
// project (a home directory, a checkout of many), and a walk of it must
// not hold up every save.
const (
	maxCandidates = 5000
	maxVisited    = 100_000
)

// Walk lists the C/C++ sources under root, the candidates of a project
// without a compilation database. Hidden directories and node_modules
// are not entered.
func Walk(root string) []string {
	var out []string
	visited := 0
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if visited++; visited > maxVisited {
			return filepath.SkipAll
		}
		if err != nil {
			return nil
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && build.IsSource(path) {
			out = append(out, path)
			if len(out) >= maxCandidates {
				return filepath.SkipAll
			}
		}
		return nil
	})
	return out
}
