package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"augur/analyzer/frontend/load"
	"augur/analyzer/settings"
	"augur/internal/safefile"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/resolve"
)

// ConfigName is the workspace configuration file, at the workspace root.
const ConfigName = "augur.toml"

// Target is one program to analyze: its sources, how it is run and with
// which settings.
type Target struct {
	// Name identifies the target in messages and progress reports.
	Name string
	// Sources are the program's translation units, absolute;
	// SourcesLine is the line of augur.toml that lists them (0 for a
	// target augur made from an open file).
	Sources     []string
	SourcesLine int
	// Args are the program's arguments (argv[1:]); Argv0 its argv[0]
	// (default: the first source's base name without extension).
	Args  []string
	Argv0 string
	// Stdin is the program's standard input, or StdinFile names a file
	// holding it (absolute).
	Stdin     string
	StdinFile string
	// Files are the virtual file system's seeds: "PATH" or "NAME=PATH",
	// PATH absolute: augur.toml's top-level ones, then the target's own,
	// which win over a top-level one of the same name. FilesLine is the
	// line of the target's own files key (0: none).
	Files     []string
	FilesLine int
	// Env sets NAME=VALUE entries in the program's environment, over
	// augur's default one (the host's is never seen).
	Env []string
	// Clients are the client programs run beside the program (a server's
	// clients), their files absolute.
	Clients []load.Client
	// Settings are the analysis options for this target.
	Settings settings.Values
	// Implicit marks a target made for an opened file that defines main
	// when augur.toml lists no targets.
	Implicit bool
}

// AllSources are the target's sources and its client programs' files:
// everything it compiles.
func (t *Target) AllSources() []string {
	all := slices.Clone(t.Sources)
	for _, c := range t.Clients {
		all = append(all, c.Files...)
	}
	return all
}

// Config is a parsed augur.toml.
type Config struct {
	Path string
	// set applies the file's top-level analysis settings.
	set     []func(*settings.Values) error
	targets []targetSpec
	// files are the top-level files: given to every program of the
	// workspace, configured or made from an open file ("NAME=PATH", PATH
	// absolute); FilesLine is the line that lists them (0: none).
	files     []string
	FilesLine int
}

// topKeys are the top-level keys that are not settings.
var topKeys = []string{"files"}

// targetSpec is a [[target]] table, its settings applied on demand over
// whatever the defaults are then.
type targetSpec struct {
	t   Target
	set []func(*settings.Values) error
}

// targetKeys are the keys of a [[target]] table that are not settings.
var targetKeys = []string{"name", "sources", "args", "argv0", "stdin", "stdin-file", "files", "env", "clients"}

// LoadConfig reads dir/augur.toml; it returns nil, nil when there is none.
func LoadConfig(dir string) (*Config, error) {
	path := filepath.Join(dir, ConfigName)
	data, err := safefile.Read(path, safefile.Rules{Max: safefile.MaxConfig})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err // it names the file
	}
	cfg, err := ParseConfig(path, string(data))
	if err != nil {
		return nil, err
	}
	return cfg, nil
}

// ParseConfig parses the text of an augur.toml at path; relative paths in
// it are relative to its directory.
func ParseConfig(path, text string) (*Config, error) {
	doc, err := parseTOML(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for name := range doc.tables {
		return nil, fmt.Errorf("%s: unknown table [%s] (settings go at the top of the file, targets in [[target]])", path, name)
	}
	for name := range doc.arrays {
		if name != "target" {
			return nil, fmt.Errorf("%s: unknown array of tables [[%s]] (want [[target]])", path, name)
		}
	}
	dir := filepath.Dir(path)
	cfg := &Config{Path: path}
	if cfg.set, err = settingsOf(doc.root, topKeys, dir); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if v, ok := doc.root.values["files"]; ok {
		cfg.FilesLine = doc.root.lines["files"]
		if err := settings.DecodeStrings(&cfg.files, v); err != nil {
			return nil, fmt.Errorf("%s: line %d: files: %w", path, cfg.FilesLine, err)
		}
		if err := resolveFiles(cfg.files, dir, cfg.FilesLine); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	names := map[string]bool{}
	for i, tab := range doc.arrays["target"] {
		spec, err := parseTarget(tab, dir)
		if err != nil {
			return nil, fmt.Errorf("%s: target %d: %w", path, i+1, err)
		}
		if names[spec.t.Name] {
			return nil, fmt.Errorf("%s: two targets are named %q", path, spec.t.Name)
		}
		names[spec.t.Name] = true
		cfg.targets = append(cfg.targets, spec)
	}
	return cfg, nil
}

// settingsOf turns a table's setting keys into setters, refusing keys that
// are neither settings nor in extra.
func settingsOf(tab *tomlTable, extra []string, dir string) ([]func(*settings.Values) error, error) {
	var out []func(*settings.Values) error
	for _, k := range tab.keys {
		if slices.Contains(extra, k) {
			continue
		}
		st := settings.Lookup(k)
		if st == nil {
			return nil, fmt.Errorf("line %d: unknown key %q (see docs/configuration.md)", tab.lines[k], k)
		}
		v, line := tab.values[k], tab.lines[k]
		if k == "include" || k == "compile-commands-dir" {
			v = absPaths(v, dir)
		}
		// Check the value now, so a bad file is reported when it is read.
		probe := settings.Defaults(settings.Editor)
		if err := st.Set(&probe, v); err != nil {
			return nil, fmt.Errorf("line %d: %s: %w", line, k, err)
		}
		out = append(out, func(s *settings.Values) error { return st.Set(s, v) })
	}
	return out, nil
}

func parseTarget(tab *tomlTable, dir string) (targetSpec, error) {
	var spec targetSpec
	t := &spec.t
	str := func(k string, dst *string) error {
		if v, ok := tab.values[k]; ok {
			if err := settings.DecodeString(dst, v); err != nil {
				return fmt.Errorf("line %d: %s: %w", tab.lines[k], k, err)
			}
		}
		return nil
	}
	strs := func(k string, dst *[]string) error {
		if v, ok := tab.values[k]; ok {
			if err := settings.DecodeStrings(dst, v); err != nil {
				return fmt.Errorf("line %d: %s: %w", tab.lines[k], k, err)
			}
		}
		return nil
	}
	var clients []string
	for _, step := range []error{str("name", &t.Name), strs("sources", &t.Sources), strs("args", &t.Args),
		str("argv0", &t.Argv0), str("stdin", &t.Stdin), str("stdin-file", &t.StdinFile), strs("files", &t.Files),
		strs("env", &t.Env), strs("clients", &clients)} {
		if step != nil {
			return spec, step
		}
	}
	var err error
	if t.Clients, err = load.ParseClients(clients, dir); err != nil {
		return spec, fmt.Errorf("line %d: clients: %w", tab.lines["clients"], err)
	}
	if len(t.Sources) == 0 {
		return spec, fmt.Errorf("no sources (want sources = [\"main.c\", ...])")
	}
	if _, err := vm.Environment(t.Env); err != nil {
		return spec, fmt.Errorf("line %d: env: %w (a workspace sets values; it cannot read the host's)", tab.lines["env"], err)
	}
	for i, s := range t.Sources {
		t.Sources[i] = abs(dir, s)
	}
	t.SourcesLine = tab.lines["sources"]
	if t.Name == "" {
		t.Name = strings.TrimSuffix(filepath.Base(t.Sources[0]), filepath.Ext(t.Sources[0]))
	}
	if t.StdinFile != "" {
		t.StdinFile = abs(dir, t.StdinFile)
		if !inside(dir, t.StdinFile) {
			return spec, fmt.Errorf("line %d: stdin-file: %s is outside the workspace; a workspace may give its program only its own files",
				tab.lines["stdin-file"], t.StdinFile)
		}
	}
	t.FilesLine = tab.lines["files"]
	if err := resolveFiles(t.Files, dir, t.FilesLine); err != nil {
		return spec, err
	}
	spec.set, err = settingsOf(tab, targetKeys, dir)
	return spec, err
}

// resolveFiles makes each of a files key's entries (listed at line of
// augur.toml in dir) NAME=PATH with PATH absolute, refusing a path
// outside the workspace.
func resolveFiles(files []string, dir string, line int) error {
	for i, f := range files {
		if name, path, ok := strings.Cut(f, "="); ok {
			files[i] = name + "=" + abs(dir, path)
		} else {
			files[i] = f + "=" + abs(dir, f) // the program opens it by the name written
		}
		if _, path, _ := strings.Cut(files[i], "="); !inside(dir, path) {
			return fmt.Errorf("line %d: files: %s is outside the workspace; a workspace may give its program only its own files",
				line, path)
		}
	}
	return nil
}

// withFiles is top's files, then own's, an own file replacing a top one
// of the same name.
func withFiles(top, own []string) []string {
	if len(top) == 0 {
		return own
	}
	names := map[string]bool{}
	for _, f := range own {
		name, _, _ := strings.Cut(f, "=")
		names[name] = true
	}
	var out []string
	for _, f := range top {
		if name, _, _ := strings.Cut(f, "="); !names[name] {
			out = append(out, f)
		}
	}
	return append(out, own...)
}

// TopFiles are the files augur.toml gives every program ("NAME=PATH").
func (c *Config) TopFiles() []string {
	if c == nil {
		return nil
	}
	return c.files
}

// inside reports whether path lies in dir (after cleaning; a symbolic
// link inside the workspace that points out is followed).
func inside(dir, path string) bool {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return safefile.Inside(dir, path)
}

// TopSettings returns base (the defaults and the client's settings) with
// the file's top-level settings applied: what every target starts from,
// the targets augur makes for open files included.
func (c *Config) TopSettings(base settings.Values) settings.Values {
	top := base
	if c == nil {
		return top
	}
	for _, set := range c.set {
		_ = set(&top) // checked when parsed
	}
	return top
}

// Targets returns the configured targets with their settings: base (the
// defaults and the client's settings), then the file's top-level
// settings, then the target's own.
func (c *Config) Targets(base settings.Values) []*Target {
	top := c.TopSettings(base)
	out := make([]*Target, 0, len(c.targets))
	for _, spec := range c.targets {
		t := spec.t
		t.Settings = top
		t.Files = withFiles(c.files, t.Files)
		for _, set := range spec.set {
			_ = set(&t.Settings)
		}
		out = append(out, &t)
	}
	return out
}

// DefinesMain reports whether C/C++ source text defines main.
func DefinesMain(src []byte) bool { return resolve.DefinesMain(src) }

// ImplicitTarget is the target of a file that defines main, when the
// workspace configures no targets, given augur.toml's top-level files.
func ImplicitTarget(file string, base settings.Values, files []string) *Target {
	return &Target{Name: filepath.Base(file), Sources: []string{file}, Settings: base, Files: files, Implicit: true}
}

// IsHeader reports whether path is a C or C++ header: analyzed as part of
// the programs that include it.
func IsHeader(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".h", ".hh", ".hpp", ".hxx", ".h++", ".inl":
		return true
	}
	return false
}

// Keys lists every augur.toml key, for documentation checks.
func Keys() (targetOnly, keys []string) {
	for _, s := range settings.Table {
		keys = append(keys, s.Key)
	}
	sort.Strings(keys)
	return append([]string(nil), targetKeys...), append(keys, topKeys...)
}

// JSONKeys lists every client setting name, for documentation checks.
func JSONKeys() []string {
	var out []string
	for _, s := range settings.Table {
		out = append(out, s.Client)
	}
	return out
}

func abs(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// absPaths makes a path or array of paths absolute against dir.
func absPaths(v any, dir string) any {
	switch x := v.(type) {
	case string:
		return abs(dir, x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			if s, ok := e.(string); ok {
				out[i] = abs(dir, s)
			} else {
				out[i] = e
			}
		}
		return out
	}
	return v
}
