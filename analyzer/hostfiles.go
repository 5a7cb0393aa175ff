package analyzer

import (
	"os"
	"path/filepath"
	"strings"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// HostFile is a file the program looked for that augur was not given and
// that exists on the host. augur gives a program only the files it is
// told to (--file, augur.toml's files; docs/security.md), so such a file
// is most likely an input the user meant the program to read: a program
// that reads its data from a file it cannot open runs, and is analyzed,
// on its error path.
type HostFile struct {
	// Name is what to give --file (or list in augur.toml's files): the
	// program's name for the file relative to the directory it was
	// looked up in when it is there, its absolute name otherwise.
	Name string
	// Host is the file on the host.
	Host string
	// At is the first place in the source that looked for it.
	At ir.Loc
}

// maxHostFiles bounds the files HostFiles names.
const maxHostFiles = 16

// HostFiles returns the files of missing that exist on the host as
// regular files: a name the program resolves to /p is looked up as p in
// dir (where --file's names are read from: the command line's working
// directory, the workspace root), then as /p. It reads only the files'
// metadata, and names none that seeded (a file the run was given) holds.
func HostFiles(missing []vm.MissingFile, seeded map[string][]byte, dir string) []HostFile {
	given := map[string]bool{}
	for name := range seeded {
		given[filepath.Clean("/"+name)] = true
	}
	var out []HostFile
	for _, f := range missing {
		if len(out) == maxHostFiles {
			break
		}
		if given[f.Path] {
			continue
		}
		rel := strings.TrimPrefix(f.Path, "/")
		if dir != "" && rel != "" {
			if host := filepath.Join(dir, filepath.FromSlash(rel)); regular(host) {
				out = append(out, HostFile{Name: rel, Host: host, At: f.At})
				continue
			}
		}
		if regular(f.Path) {
			out = append(out, HostFile{Name: f.Path, Host: f.Path, At: f.At})
		}
	}
	return out
}

// regular reports whether path is a regular file on the host.
func regular(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
