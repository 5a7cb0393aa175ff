package workspace

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"augur/analyzer/frontend/load"
	"augur/analyzer/settings"
	"augur/internal/safefile"

	"augur/analyzer"
	"augur/analyzer/detect/tsan"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/build"
	"augur/analyzer/frontend/resolve"
)

// Workspace is one workspace folder: its configuration, the client's
// settings and the compilation databases under it. It is safe for
// concurrent use.
type Workspace struct {
	Root string

	mu        sync.Mutex
	client    settings.Values // defaults overridden by the client's settings
	config    *Config
	configErr error
	compdbs   CompDBs
}

// New returns the workspace rooted at root, with augur.toml read.
func New(root string) *Workspace {
	w := &Workspace{Root: root, client: settings.Defaults(settings.Editor)}
	w.ReloadConfig()
	return w
}

// ReloadConfig reads augur.toml again (after it was saved or changed on
// disk) and returns its error, if any; the error stays available from
// ConfigError until the next reload.
func (w *Workspace) ReloadConfig() error {
	cfg, err := LoadConfig(w.Root)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.config, w.configErr = cfg, err
	return err
}

// ConfigError is the error of the last reading of augur.toml.
func (w *Workspace) ConfigError() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.configErr
}

// ConfigPath is where augur.toml is (whether or not it exists).
func (w *Workspace) ConfigPath() string { return filepath.Join(w.Root, ConfigName) }

// SetClientSettings applies the client's settings over the defaults,
// replacing earlier client settings. A bad value leaves the settings as
// they were.
func (w *Workspace) SetClientSettings(m map[string]any) (warnings []string, err error) {
	s := settings.Defaults(settings.Editor)
	warnings, err = ApplyJSON(&s, m)
	if err != nil {
		return warnings, err
	}
	w.mu.Lock()
	w.client = s
	w.mu.Unlock()
	return warnings, nil
}

// ClientSettings returns the defaults with the client's settings applied.
func (w *Workspace) ClientSettings() settings.Values {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.client
}

// ImplicitSettings are the settings of a target augur makes for an open
// file: the client's, then augur.toml's top-level ones (a file without
// [[target]] tables still sets them for every program).
func (w *Workspace) ImplicitSettings() settings.Values {
	w.mu.Lock()
	cfg, base := w.config, w.client
	w.mu.Unlock()
	return cfg.TopSettings(base)
}

// TopFiles are the files augur.toml gives every program of the workspace
// ("NAME=PATH", PATH absolute).
func (w *Workspace) TopFiles() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.config.TopFiles()
}

// Config is augur.toml as last read (nil: none, or a broken one).
func (w *Workspace) Config() *Config {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.config
}

// Targets returns every configured target (none without augur.toml).
func (w *Workspace) Targets() []*Target {
	w.mu.Lock()
	cfg, base := w.config, w.client
	w.mu.Unlock()
	if cfg == nil {
		return nil
	}
	return cfg.Targets(base)
}

// TargetsOf returns the targets file belongs to: the configured targets
// listing it among their sources or, when augur.toml configures no
// targets, the file's own target if its text defines main.
//
// While augur.toml is broken, no file belongs to any target.
func (w *Workspace) TargetsOf(file string, text []byte) []*Target {
	if w.ConfigError() != nil {
		return nil
	}
	configured := w.Targets()
	if len(configured) == 0 {
		if build.IsSource(file) && DefinesMain(text) {
			return []*Target{ImplicitTarget(file, w.ImplicitSettings(), w.TopFiles())}
		}
		return nil
	}
	var out []*Target
	for _, t := range configured {
		if slices.Contains(t.AllSources(), file) {
			out = append(out, t)
		}
	}
	return out
}

// HasTargets reports whether augur.toml configures targets.
func (w *Workspace) HasTargets() bool { return len(w.Targets()) > 0 }

// Plan is everything needed to build and analyze a target.
type Plan struct {
	Build   build.Options
	Analyze analyzer.Options
	// History says whether the server keeps a history for the target
	// (Analyze.History is set by the server, which owns the cache).
	History bool
	// SuggestFixes says whether fixes are proposed and verified after
	// each analysis (fixcheck.Suggest).
	SuggestFixes bool
	// CompDBs are the compilation databases whose flags were used.
	CompDBs []string
	// Candidates are the sources that may complete an implicit target's
	// program (analyzer.LoadSources): the compilation database's, each
	// with its flags in Build.FileFlags, or else the workspace's C/C++
	// files. A configured target's sources are what it lists: none.
	Candidates []string
	key        string
}

// Key fingerprints everything the plan's analysis depends on besides the
// program's code: the target, its settings, flags and input contents. Two
// plans with the same key on the same code give the same results.
func (p *Plan) Key() string { return p.key }

// Plan turns a target into build and analysis options: compile flags from
// its settings and the compilation database, its inputs read from disk.
func (w *Workspace) Plan(t *Target, cacheDir string) (*Plan, error) {
	s := t.Settings
	p := &Plan{Build: build.Options{CacheDir: cacheDir, FileFlags: map[string][]string{}, MaxMemory: s.MaxMemory}}
	for _, dir := range s.Include {
		p.Build.Flags = append(p.Build.Flags, "-I"+abs(w.Root, dir))
	}
	for _, d := range s.Define {
		p.Build.Flags = append(p.Build.Flags, "-D"+d)
	}
	p.Build.Flags = append(p.Build.Flags, s.Flags...)
	seen := map[string]bool{}
	for _, src := range t.AllSources() {
		db, err := w.compdbs.Find(src, s.CompileCommandsDir)
		if err != nil {
			return nil, fmt.Errorf("compilation database: %w", err)
		}
		if db == nil {
			continue
		}
		if flags, ok := db.Flags(src); ok {
			p.Build.FileFlags[src] = flags
			if !seen[db.Path] {
				seen[db.Path] = true
				p.CompDBs = append(p.CompDBs, db.Path)
			}
		}
	}
	if t.Implicit {
		if err := w.candidates(p, t.Sources[0], s.CompileCommandsDir); err != nil {
			return nil, err
		}
	}
	argv0 := t.Argv0
	if argv0 == "" {
		argv0 = strings.TrimSuffix(filepath.Base(t.Sources[0]), filepath.Ext(t.Sources[0]))
	}
	env, err := vm.Environment(t.Env)
	if err != nil {
		return nil, fmt.Errorf("target %s: %w", t.Name, err)
	}
	clientFiles, clientArgv := load.SplitClients(t.Clients)
	p.Build.Clients = clientFiles
	run := vm.Config{Args: append([]string{argv0}, t.Args...), Clients: clientArgv, Env: env, Stdin: []byte(t.Stdin)}
	if t.StdinFile != "" {
		data, err := safefile.Read(t.StdinFile, safefile.Rules{Max: safefile.MaxInput})
		if err != nil {
			return nil, fmt.Errorf("target %s: stdin-file: %w", t.Name, err)
		}
		run.Stdin = data
	}
	if len(t.Files) > 0 {
		run.Files = map[string][]byte{}
		for _, spec := range t.Files {
			name, path, _ := strings.Cut(spec, "=")
			data, err := safefile.Read(path, safefile.Rules{Max: safefile.MaxInput})
			if err != nil {
				return nil, fmt.Errorf("target %s: files: %w", t.Name, err)
			}
			run.Files[name] = data
		}
	}
	p.Analyze = s.Options(run)
	p.Analyze.Sources, p.Analyze.Build = t.Sources, p.Build
	p.History, p.SuggestFixes = s.History, s.SuggestFixes
	h := sha256.New()
	fmt.Fprintf(h, "fixes=%v\x00", s.SuggestFixes)
	if p.Analyze.TSan, err = w.tsanReports(s.TSanReports, h); err != nil {
		return nil, fmt.Errorf("target %s: tsanReport: %w", t.Name, err)
	}
	fmt.Fprintf(h, "%+v\x00%q\x00%v\x00%q\x00", *t, p.Build.Flags, p.Build.FileFlags, run.Stdin)
	for _, spec := range t.Files {
		name, _, _ := strings.Cut(spec, "=")
		fmt.Fprintf(h, "%q=%x\x00", name, sha256.Sum256(run.Files[name]))
	}
	p.key = hex.EncodeToString(h.Sum(nil))
	return p, nil
}

// candidates fills in the plan's candidates for completing the program
// of main: the files of main's compilation database, with their flags,
// when it has one; the workspace's sources otherwise.
func (w *Workspace) candidates(p *Plan, main, dir string) error {
	db, err := w.compdbs.Find(main, dir)
	if err != nil {
		return fmt.Errorf("compilation database: %w", err)
	}
	if db == nil {
		p.Candidates = resolve.Walk(w.Root)
		return nil
	}
	p.Candidates = db.Files()
	for _, f := range p.Candidates {
		if _, ok := p.Build.FileFlags[f]; !ok {
			p.Build.FileFlags[f], _ = db.Flags(f)
		}
	}
	return nil
}

// tsanReports reads the ThreadSanitizer reports the patterns name
// (relative to the root; globs expanded, sorted, each file once), numbering
// their warnings across them, and adds their contents to the plan's key h.
// A pattern that matches nothing is no error (the CI may not have run
// yet); a file that is no report is.
func (w *Workspace) tsanReports(patterns []string, h io.Writer) ([]tsan.Warning, error) {
	var out []tsan.Warning
	seen := map[string]bool{}
	for _, pat := range patterns {
		paths, err := filepath.Glob(abs(w.Root, pat))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", pat, err)
		}
		sort.Strings(paths)
		for _, path := range paths {
			if seen[path] {
				continue
			}
			seen[path] = true
			data, err := safefile.Read(path, safefile.Rules{Max: safefile.MaxInput})
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(h, "tsan %s %x\x00", path, sha256.Sum256(data))
			rel, err := filepath.Rel(w.Root, path)
			if err != nil {
				rel = path
			}
			ws, err := tsan.Parse(bytes.NewReader(data), rel, len(out)+1)
			if err != nil {
				return nil, err
			}
			out = append(out, ws...)
		}
	}
	return out, nil
}
