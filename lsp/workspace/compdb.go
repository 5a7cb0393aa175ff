package workspace

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"augur/analyzer/frontend/build"
	"augur/internal/safefile"
)

// CompDBName is the compilation database file name.
const CompDBName = "compile_commands.json"

// compEntry is one entry of a compilation database.
type compEntry struct {
	Directory string   `json:"directory"`
	File      string   `json:"file"`
	Command   string   `json:"command"`
	Arguments []string `json:"arguments"`
}

// CompDB is a loaded compile_commands.json: the flags that matter to
// augur for each source file, by absolute path.
type CompDB struct {
	Path  string
	flags map[string][]string
}

// CompDBs finds and caches compilation databases.
type CompDBs struct {
	mu     sync.Mutex
	loaded map[string]*compDBEntry // by path
}

type compDBEntry struct {
	db    *CompDB
	err   error
	mtime int64
}

// Find returns the compilation database for file, found as clangd finds
// it: in dir when dir is set; otherwise in the file's directory and each
// parent, also looking into a build/ subdirectory of each. It returns nil
// when there is none.
func (c *CompDBs) Find(file, dir string) (*CompDB, error) {
	var candidates []string
	if dir != "" {
		candidates = []string{filepath.Join(dir, CompDBName)}
	} else {
		for d := filepath.Dir(file); ; d = filepath.Dir(d) {
			candidates = append(candidates, filepath.Join(d, CompDBName), filepath.Join(d, "build", CompDBName))
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	for _, p := range candidates {
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		return c.load(p, st.ModTime().UnixNano())
	}
	return nil, nil
}

// load reads path, or returns the cached database if it has not changed.
func (c *CompDBs) load(path string, mtime int64) (*CompDB, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.loaded == nil {
		c.loaded = map[string]*compDBEntry{}
	}
	if e, ok := c.loaded[path]; ok && e.mtime == mtime {
		return e.db, e.err
	}
	db, err := ReadCompDB(path)
	c.loaded[path] = &compDBEntry{db: db, err: err, mtime: mtime}
	return db, err
}

// ReadCompDB parses a compilation database.
func ReadCompDB(path string) (*CompDB, error) {
	data, err := safefile.Read(path, safefile.Rules{Max: safefile.MaxConfig})
	if err != nil {
		return nil, err
	}
	var entries []compEntry
	if err := json.Unmarshal(data, &entries); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	db := &CompDB{Path: path, flags: map[string][]string{}}
	for _, e := range entries {
		args := e.Arguments
		if len(args) == 0 {
			var err error
			if args, err = build.SplitCommand(e.Command); err != nil {
				return nil, fmt.Errorf("%s: the entry of %s: %w", path, e.File, err)
			}
		}
		file := abs(e.Directory, e.File)
		if _, seen := db.flags[file]; seen {
			continue // the first entry of a file wins, as in clangd
		}
		db.flags[file] = relevantFlags(args, e.Directory)
	}
	return db, nil
}

// Flags returns the flags recorded for file and whether it has an entry.
func (db *CompDB) Flags(file string) ([]string, bool) {
	f, ok := db.flags[filepath.Clean(file)]
	return f, ok
}

// Files returns the sources the database has entries for, sorted.
func (db *CompDB) Files() []string { return slices.Sorted(maps.Keys(db.flags)) }

// relevantFlags keeps the flags that change what the program means
// (includes, macros, language standard, char signedness), with relative
// directories made absolute against the entry's directory. Output,
// optimization, warning and code generation flags do not concern augur,
// which compiles with its own.
func relevantFlags(args []string, dir string) []string {
	var out []string
	withPath := map[string]bool{"-I": true, "-isystem": true, "-iquote": true, "-idirafter": true, "-include": true}
	for i := 1; i < len(args); i++ { // args[0] is the compiler
		a := args[i]
		switch {
		case withPath[a] && i+1 < len(args):
			out = append(out, a, abs(dir, args[i+1]))
			i++
		case strings.HasPrefix(a, "-I") && len(a) > 2:
			out = append(out, "-I"+abs(dir, a[2:]))
		case (a == "-D" || a == "-U") && i+1 < len(args):
			out = append(out, a+args[i+1])
			i++
		case strings.HasPrefix(a, "-D") || strings.HasPrefix(a, "-U") || strings.HasPrefix(a, "-std=") ||
			a == "-fsigned-char" || a == "-funsigned-char" || a == "-pthread" || a == "-ansi":
			out = append(out, a)
		}
	}
	return out
}
