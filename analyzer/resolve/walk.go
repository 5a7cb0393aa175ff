package resolve

import (
	"io/fs"
	"path/filepath"
	"strings"

	"augur/analyzer/build"
)

// maxCandidates bounds the sources Walk lists: a directory holding more
// is not one program's project (a home directory, a checkout of many).
const maxCandidates = 5000

// Walk lists the C/C++ sources under root, the candidates of a project
// without a compilation database. Hidden directories and node_modules
// are not entered.
func Walk(root string) []string {
	var out []string
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
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
