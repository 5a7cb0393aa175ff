package workspace

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"augur/analyzer/settings"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestParseTOML(t *testing.T) {
	doc, err := parseTOML(`# settings
mp = 3   # comment after a value
timeout = "10s"
preempt-accesses = true
sym-arg = [
  8,  # first
  4,
]
'quoted key' = 'lit\eral'

[[target]]
name = "a \"b\" \u00e9"
sources = ["x.c", "y.c"]

[[target]]
sources = []
`)
	if err != nil {
		t.Fatal(err)
	}
	root := doc.root.values
	if root["mp"] != int64(3) || root["timeout"] != "10s" || root["preempt-accesses"] != true ||
		!reflect.DeepEqual(root["sym-arg"], []any{int64(8), int64(4)}) || root["quoted key"] != `lit\eral` {
		t.Errorf("root: %#v", root)
	}
	ts := doc.arrays["target"]
	if len(ts) != 2 || ts[0].values["name"] != `a "b" é` || !reflect.DeepEqual(ts[0].values["sources"], []any{"x.c", "y.c"}) {
		t.Errorf("targets: %#v", ts)
	}
}

// A file that is not TOML is refused with the line and column go-toml
// names, and a value missing its quotes gets the fix.
func TestParseTOMLErrors(t *testing.T) {
	for src, want := range map[string]string{
		"mp = ":                  "line 1, column 5: expected value",
		"x = \"open":             "line 1, column 9: unterminated basic string",
		"x = [1, 2":              "line 1, column 9: array is incomplete",
		"x = 1\nx = 2":           "line 2, column 1: key x is already defined",
		"[t]\n[t]":               "line 2, column 2: table t already exists",
		"x = 1 y":                "line 1, column 7: expected newline",
		"[[target]]\n[target]":   "line 2, column 2: table target already exists as an array of tables",
		"x = \"bad \\q escape\"": "line 1, column 10: invalid escape",
		"= 3":                    "line 1, column 1: invalid character at start of key",
		"\ntimeout = 30s":        `line 2, column 13: strings must be quoted (TOML strings are quoted: timeout = "30s")`,
		"memory-model = weak":    `(TOML strings are quoted: memory-model = "weak")`,
	} {
		_, err := parseTOML(src)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseTOML(%q) = %v, want an error containing %q", src, err, want)
		}
	}
}

// All of TOML is read: what the old hand-written subset refused (dotted
// keys, inline tables, multi-line strings, floats) parses, each key keeps
// its line, and augur's own checks judge the values.
func TestParseTOMLWhole(t *testing.T) {
	doc, err := parseTOML("target = [{name = \"a\", sources = [\"a.c\"]}]\nstdin = \"\"\"two\nlines\"\"\"\nx.y = 1.5\n\n[[more]]\nk = 2\n")
	if err != nil {
		t.Fatal(err)
	}
	if ts := doc.arrays["target"]; len(ts) != 1 || ts[0].values["name"] != "a" || ts[0].lines["sources"] != 1 {
		t.Errorf("inline array of tables: %#v", ts)
	}
	if doc.root.values["stdin"] != "two\nlines" || doc.root.lines["stdin"] != 2 {
		t.Errorf("multi-line string: %#v", doc.root)
	}
	if x := doc.tables["x"]; x == nil || x.values["y"] != 1.5 || x.lines["y"] != 4 {
		t.Errorf("dotted key: %#v", doc.tables)
	}
	if m := doc.arrays["more"]; len(m) != 1 || m[0].lines["k"] != 7 {
		t.Errorf("array of tables: %#v", m)
	}
	for src, want := range map[string]string{
		"\n\nmp = 1.5": "line 3: mp: want an integer, got 1.5",
		"timeout = 30": "line 1: timeout",
		"a.b = 1":      "unknown table [a]",
		"mp = {a = 1}": "line 1: mp: want an integer, got an object",
		"[[target]]\nsources = [\"a.c\"]\nmp = 2.0": "", // a whole float is an integer
	} {
		_, err := ParseConfig("/w/augur.toml", src)
		if want == "" {
			if err != nil {
				t.Errorf("ParseConfig(%q) = %v", src, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseConfig(%q) = %v, want an error containing %q", src, err, want)
		}
	}
}

// Settings come from the defaults, then the client, then the file's top
// level, then the target's own table.
func TestConfigPrecedence(t *testing.T) {
	dir := t.TempDir()
	cfg, err := ParseConfig(filepath.Join(dir, ConfigName), `
mp = 3
include = ["inc"]

[[target]]
name = "server"
sources = ["src/server.c", "src/stats.c"]
args = ["--port", "80"]
stdin = "GET /\n"
files = ["data/in.txt", "conf=etc/c.conf"]
ma = 4

[[target]]
sources = ["tools/t.c"]
`)
	if err != nil {
		t.Fatal(err)
	}
	base := settings.Defaults(settings.Editor)
	if _, err := ApplyJSON(&base, map[string]any{"augur": map[string]any{"ma": 7.0, "mp": 9.0, "schedules": 3.0}}); err != nil {
		t.Fatal(err)
	}
	ts := cfg.Targets(base)
	if len(ts) != 2 {
		t.Fatalf("%d targets", len(ts))
	}
	server, tool := ts[0], ts[1]
	if server.Settings.Mp != 3 || server.Settings.Ma != 4 || server.Settings.Schedules != 3 {
		t.Errorf("server settings mp %d ma %d schedules %d, want 3 4 3", server.Settings.Mp, server.Settings.Ma, server.Settings.Schedules)
	}
	if tool.Settings.Ma != 7 || tool.Name != "t" {
		t.Errorf("tool: name %q ma %d, want t 7", tool.Name, tool.Settings.Ma)
	}
	wantSrc := []string{filepath.Join(dir, "src/server.c"), filepath.Join(dir, "src/stats.c")}
	if !reflect.DeepEqual(server.Sources, wantSrc) || server.Stdin != "GET /\n" ||
		!reflect.DeepEqual(server.Args, []string{"--port", "80"}) {
		t.Errorf("server: %+v", server)
	}
	wantFiles := []string{"data/in.txt=" + filepath.Join(dir, "data/in.txt"), "conf=" + filepath.Join(dir, "etc/c.conf")}
	if !reflect.DeepEqual(server.Files, wantFiles) {
		t.Errorf("files %v, want %v", server.Files, wantFiles)
	}
	if !reflect.DeepEqual(server.Settings.Include, []string{filepath.Join(dir, "inc")}) {
		t.Errorf("include %v", server.Settings.Include)
	}
}

func TestConfigErrors(t *testing.T) {
	for text, want := range map[string]string{
		"bogus = 1":                               `line 1: unknown key "bogus"`,
		"mp = \"five\"":                           `mp: want an integer, got the string "five"`,
		"memory-model = \"tso\"":                  `want one of sc, weak, got "tso"`,
		"timeout = \"soon\"":                      "want a duration",
		"[[target]]\nname = \"x\"":                "target 1: no sources",
		"[[target]]\nsources = [\"a.c\"]\nmp = 0": "want at least 1",
		"[analysis]\nmp = 1":                      "unknown table [analysis]",
		"[[targets]]\nsources = [\"a.c\"]":        "want [[target]]",
		"[[target]]\nsources=[\"a.c\"]\n[[target]]\nsources=[\"b/a.c\"]": `two targets are named "a"`,
		"sym-file = [\"in\"]":                   `want "NAME:SIZE"`,
		"\nflags = [\"-fplugin=/tmp/evil.so\"]": `line 2: flags: flag 1 refused: "-fplugin=/tmp/evil.so" is not allowed`,
		"[[target]]\nsources = [\"a.c\"]\nflags = [\"-Wall\", \"-MJ\", \"/tmp/x.json\"]": `line 3: flags: flag 2 refused`,
		"flags = [\"@/tmp/more-flags\"]":                                                 `reads more flags from a file`,
		"[[target]]\nsources = [\"a.c\"]\nfiles = [\"key=/root/.ssh/id_rsa\"]":           `line 3: files: /root/.ssh/id_rsa is outside the workspace`,
		"[[target]]\nsources = [\"a.c\"]\nstdin-file = \"../../etc/passwd\"":             `line 3: stdin-file: /etc/passwd is outside the workspace`,
	} {
		_, err := ParseConfig("/w/augur.toml", text)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseConfig(%q) = %v, want an error containing %q", text, err, want)
		}
	}
}

func TestClientSettings(t *testing.T) {
	var m map[string]any
	if err := json.Unmarshal([]byte(`{"mp": 2, "memoryModel": "sc", "symbolicArgs": [8, 4], "timeout": "5s",
		"path": "/usr/bin/augur", "brandNew": 1}`), &m); err != nil {
		t.Fatal(err)
	}
	s := settings.Defaults(settings.Editor)
	warnings, err := ApplyJSON(&s, m)
	if err != nil {
		t.Fatal(err)
	}
	if s.Mp != 2 || !reflect.DeepEqual(s.SymArgs, []int{8, 4}) || s.Timeout != 5*time.Second {
		t.Errorf("settings: %+v", s)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "augur.brandNew") {
		t.Errorf("warnings: %v", warnings)
	}
	if _, err := ApplyJSON(&s, map[string]any{"mp": 1.5}); err == nil || !strings.Contains(err.Error(), "augur.mp") {
		t.Errorf("mp 1.5: %v", err)
	}
}

// Without augur.toml an opened file that defines main is its own target;
// with targets configured only their sources belong to them.
func TestTargetsOf(t *testing.T) {
	dir := t.TempDir()
	w := New(dir)
	main := filepath.Join(dir, "a.c")
	if ts := w.TargetsOf(main, []byte("#include <stdio.h>\nint main(void) {\n}\n")); len(ts) != 1 || !ts[0].Implicit {
		t.Errorf("implicit target: %+v", ts)
	}
	if ts := w.TargetsOf(filepath.Join(dir, "lib.c"), []byte("int helper(void) { return 1; }\n")); len(ts) != 0 {
		t.Errorf("a file without main got targets: %+v", ts)
	}
	// Top-level settings apply to the programs of open files too when the
	// file lists no targets (docs/configuration.md: to every target).
	write(t, filepath.Join(dir, ConfigName), "timeout = \"30s\"\ndetect-only = true\nmax-instructions = 1000\n")
	if err := w.ReloadConfig(); err != nil {
		t.Fatal(err)
	}
	if ts := w.TargetsOf(main, []byte("int main(void) {\n}\n")); len(ts) != 1 || ts[0].Settings.Timeout != 30*time.Second ||
		!ts[0].Settings.DetectOnly || ts[0].Settings.MaxInstructions != 1000 {
		t.Errorf("implicit target under top-level settings: %+v", ts[0].Settings)
	}
	write(t, filepath.Join(dir, ConfigName), "[[target]]\nsources = [\"lib.c\", \"other.c\"]\n")
	if err := w.ReloadConfig(); err != nil {
		t.Fatal(err)
	}
	if ts := w.TargetsOf(filepath.Join(dir, "lib.c"), nil); len(ts) != 1 || ts[0].Name != "lib" {
		t.Errorf("configured target: %+v", ts)
	}
	if ts := w.TargetsOf(main, []byte("int main(void) {}")); len(ts) != 0 {
		t.Errorf("with targets configured, a.c (not listed) got %+v", ts)
	}
	write(t, filepath.Join(dir, ConfigName), "mp = oops\n")
	if err := w.ReloadConfig(); err == nil || w.ConfigError() == nil {
		t.Error("a broken augur.toml was accepted")
	}
}

func TestDefinesMain(t *testing.T) {
	for src, want := range map[string]bool{
		"int main(void) {":                true,
		"int main(int argc, char **argv)": true,
		"static int main (void)":          true,
		"  auto main() -> int {":          true,
		"int domain(void) {":              false,
		"// int main(void) in a comment?": false,
		"int x = main_count();":           false,
	} {
		if got := DefinesMain([]byte(src)); got != want {
			t.Errorf("DefinesMain(%q) = %v, want %v", src, got, want)
		}
	}
}

// The compilation database is found next to the file, in a parent, or in
// a parent's build/ directory; its relevant flags come out absolute.
func TestCompDB(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src", "a.c")
	write(t, src, "int main(void){}\n")
	write(t, filepath.Join(dir, "build", CompDBName), `[
 {"directory": "`+dir+`/build", "file": "../src/a.c",
  "command": "cc -O2 -Wall -I../include -I /abs/inc -DFOO=1 -D BAR -std=c11 -o a.o -c ../src/a.c \"-DMSG=\\\"hi there\\\"\""}
]`)
	var dbs CompDBs
	db, err := dbs.Find(src, "")
	if err != nil || db == nil {
		t.Fatalf("Find: %v, %v", db, err)
	}
	flags, ok := db.Flags(src)
	want := []string{"-I" + filepath.Join(dir, "include"), "-I", "/abs/inc", "-DFOO=1", "-DBAR", "-std=c11", `-DMSG="hi there"`}
	if !ok || !reflect.DeepEqual(flags, want) {
		t.Errorf("flags %q, want %q", flags, want)
	}
	if db, _ := dbs.Find(src, filepath.Join(dir, "elsewhere")); db != nil {
		t.Error("a configured directory without a database still found one")
	}
	w := New(dir)
	plan, err := w.Plan(&Target{Name: "a", Sources: []string{src}, Settings: settings.Defaults(settings.Editor)}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(plan.Build.FileFlags[src], want) || len(plan.CompDBs) != 1 {
		t.Errorf("plan: %+v", plan.Build)
	}
	if len(plan.Candidates) != 0 {
		t.Errorf("a configured target is completed from %v", plan.Candidates)
	}
}

// An opened file's own target is completed from the files of its
// compilation database, each compiled with its flags, or, without one,
// from the workspace's sources.
func TestImplicitTargetCandidates(t *testing.T) {
	dir := t.TempDir()
	main, lib, loose := filepath.Join(dir, "main.c"), filepath.Join(dir, "lib", "lib.c"), filepath.Join(dir, "loose.c")
	write(t, main, "int main(void){}\n")
	write(t, lib, "int lib(void){ return 1; }\n")
	write(t, loose, "int loose(void){ return 2; }\n")
	w := New(dir)
	plan, err := w.Plan(ImplicitTarget(main, settings.Defaults(settings.Editor), nil), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{lib, loose, main}; !reflect.DeepEqual(plan.Candidates, want) {
		t.Errorf("without a database: candidates %v, want %v", plan.Candidates, want)
	}
	write(t, filepath.Join(dir, CompDBName), `[
 {"directory": "`+dir+`", "file": "main.c", "command": "cc -c main.c"},
 {"directory": "`+dir+`", "file": "lib/lib.c", "command": "cc -DLIB=1 -c lib/lib.c"}
]`)
	if plan, err = w.Plan(ImplicitTarget(main, settings.Defaults(settings.Editor), nil), t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if want := []string{lib, main}; !reflect.DeepEqual(plan.Candidates, want) {
		t.Errorf("with a database: candidates %v, want %v", plan.Candidates, want)
	}
	if got := plan.Build.FileFlags[lib]; !reflect.DeepEqual(got, []string{"-DLIB=1"}) {
		t.Errorf("lib.c's flags %q, want its database entry's", got)
	}
}

// Every key of augur.toml and every client setting is documented.
func TestConfigurationIsDocumented(t *testing.T) {
	data, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	targetKeys, settings := Keys()
	for _, k := range append(targetKeys, settings...) {
		if !strings.Contains(doc, "`"+k+"`") {
			t.Errorf("docs/configuration.md does not document augur.toml key %q", k)
		}
	}
	for _, k := range JSONKeys() {
		if !strings.Contains(doc, "`augur."+k+"`") {
			t.Errorf("docs/configuration.md does not document client setting augur.%s", k)
		}
	}
}

// A workspace's files that are links to /dev/zero or FIFOs (a cloned
// repository can hold such links) are errors that name them, returned at
// once: augur.toml, compile_commands.json, stdin-file and files.
func TestSpecialFilesAreErrors(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Symlink("/dev/zero", filepath.Join(dir, ConfigName))
	if _, err := LoadConfig(dir); err == nil || !strings.Contains(err.Error(), "character device") {
		t.Errorf("augur.toml linked to /dev/zero: %v", err)
	}
	os.Remove(filepath.Join(dir, ConfigName))
	os.Symlink(fifo, filepath.Join(dir, ConfigName))
	if _, err := LoadConfig(dir); err == nil || !strings.Contains(err.Error(), "FIFO") {
		t.Errorf("augur.toml linked to a FIFO: %v", err)
	}
	os.Remove(filepath.Join(dir, ConfigName))

	os.Symlink("/dev/zero", filepath.Join(dir, CompDBName))
	if _, err := ReadCompDB(filepath.Join(dir, CompDBName)); err == nil || !strings.Contains(err.Error(), "character device") {
		t.Errorf("compile_commands.json linked to /dev/zero: %v", err)
	}
	os.Remove(filepath.Join(dir, CompDBName))

	src := filepath.Join(dir, "a.c")
	write(t, src, "int main(void){}\n")
	w := New(dir)
	for _, tg := range []*Target{
		{Name: "a", Sources: []string{src}, Settings: settings.Defaults(settings.Editor), StdinFile: fifo},
		{Name: "a", Sources: []string{src}, Settings: settings.Defaults(settings.Editor), Files: []string{"in.txt=" + fifo}},
	} {
		if _, err := w.Plan(tg, t.TempDir()); err == nil || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("%+v: %v", tg, err)
		}
	}
}

// A target's clients (augur.toml `clients`) are read as sources then
// arguments, relative to augur.toml; the plan builds and runs them; a
// client's source belongs to the target; a client line that does not
// start with a source is an error naming its line.
func TestTargetClients(t *testing.T) {
	dir := t.TempDir()
	w := New(dir)
	write(t, filepath.Join(dir, ConfigName), "[[target]]\nname = \"srv\"\nsources = [\"server.c\"]\nclients = [\"cl/client.c cl/util.c -p 11311\", \"client.c\"]\n")
	if err := w.ReloadConfig(); err != nil {
		t.Fatal(err)
	}
	client := filepath.Join(dir, "cl", "client.c")
	ts := w.TargetsOf(client, nil)
	if len(ts) != 1 || ts[0].Name != "srv" {
		t.Fatalf("a client's source belongs to its target: %+v", ts)
	}
	p, err := w.Plan(ts[0], t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	wantFiles := [][]string{{client, filepath.Join(dir, "cl", "util.c")}, {filepath.Join(dir, "client.c")}}
	wantArgv := [][]string{{"client", "-p", "11311"}, {"client"}}
	if !reflect.DeepEqual(p.Build.Clients, wantFiles) || !reflect.DeepEqual(p.Analyze.Run.Clients, wantArgv) {
		t.Errorf("plan: build clients %v, run clients %v; want %v, %v", p.Build.Clients, p.Analyze.Run.Clients, wantFiles, wantArgv)
	}
	write(t, filepath.Join(dir, ConfigName), "[[target]]\nsources = [\"server.c\"]\n\nclients = [\"-p 1 client.c\"]\n")
	if err := w.ReloadConfig(); err == nil || !strings.Contains(err.Error(), "line 4: clients") {
		t.Errorf("a client line without its sources first: %v", err)
	}
}

// augur.toml's top-level files are given to every program: a target's
// own file of the same name wins, and a program made from an open file
// (no [[target]]) gets them too. A path outside the workspace is refused
// with its line.
func TestTopLevelFilesGoToEveryProgram(t *testing.T) {
	dir := t.TempDir()
	dir, _ = filepath.EvalSymlinks(dir)
	main := filepath.Join(dir, "main.c")
	write(t, main, "int main(void){}\n")
	write(t, filepath.Join(dir, ConfigName), "files = [\"data.txt\", \"conf=etc/a.conf\"]\n")
	w := New(dir)
	if err := w.ConfigError(); err != nil {
		t.Fatal(err)
	}
	got := w.TargetsOf(main, []byte("int main(void){}\n"))
	want := []string{"data.txt=" + filepath.Join(dir, "data.txt"), "conf=" + filepath.Join(dir, "etc/a.conf")}
	if len(got) != 1 || !got[0].Implicit || !reflect.DeepEqual(got[0].Files, want) {
		t.Fatalf("implicit target's files: %+v, want %q", got, want)
	}
	if w.Config().FilesLine != 1 {
		t.Errorf("FilesLine = %d, want 1", w.Config().FilesLine)
	}

	write(t, filepath.Join(dir, ConfigName), "files = [\"data.txt\", \"conf=etc/a.conf\"]\n[[target]]\nsources = [\"main.c\"]\nfiles = [\"conf=b.conf\"]\n")
	if err := w.ReloadConfig(); err != nil {
		t.Fatal(err)
	}
	ts := w.Targets()
	want = []string{"data.txt=" + filepath.Join(dir, "data.txt"), "conf=" + filepath.Join(dir, "b.conf")}
	if len(ts) != 1 || !reflect.DeepEqual(ts[0].Files, want) || ts[0].FilesLine != 4 {
		t.Errorf("configured target's files: %+v, want %q at line 4", ts, want)
	}

	write(t, filepath.Join(dir, ConfigName), "timeout = \"1m\"\nfiles = [\"../secret\"]\n")
	if err := w.ReloadConfig(); err == nil || !strings.Contains(err.Error(), "line 2: files:") || !strings.Contains(err.Error(), "outside the workspace") {
		t.Errorf("a top-level file outside the workspace: %v", err)
	}
}
