package settings

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"augur/analyzer"
	"augur/analyzer/exec/vm"
)

var update = flag.Bool("update", false, "rewrite docs/configuration.md's settings table from Table")

const (
	docPath    = "../../docs/configuration.md"
	tableStart = "<!-- settings table: made from analyzer/settings.Table; go test ./analyzer/settings -update rewrites it -->\n"
	tableEnd   = "<!-- end of settings table -->\n"
)

// docs/configuration.md's settings table is the one Table makes.
func TestConfigurationTableIsCurrent(t *testing.T) {
	data, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i, j := strings.Index(doc, tableStart), strings.Index(doc, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no settings table between %q and %q", docPath, tableStart, tableEnd)
	}
	made := doc[:i+len(tableStart)] + Markdown() + doc[j:]
	if made == doc {
		return
	}
	if *update {
		if err := os.WriteFile(docPath, []byte(made), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s's settings table is not Table's: go test ./analyzer/settings -update rewrites it", docPath)
}

// Every setting has the fields the front ends need, its default in each
// front is a value it accepts, and no two settings share a name.
func TestTableIsWhole(t *testing.T) {
	keys, clients := map[string]bool{}, map[string]bool{}
	for _, s := range Table {
		if s.Key == "" || s.Client == "" || s.Type == "" || s.Doc == "" || s.Fronts == 0 || s.set == nil || s.Default == nil {
			t.Errorf("%q: a field is missing: %+v", s.Key, s)
		}
		if keys[s.Key] || clients[s.Client] {
			t.Errorf("%q / %q named twice", s.Key, s.Client)
		}
		keys[s.Key], clients[s.Client] = true, true
		for _, f := range []Front{CLI, Editor} {
			var v Values
			if err := s.set(&v, s.defaultFor(f)); err != nil {
				t.Errorf("%s: default refused: %v", s.Key, err)
			}
		}
	}
}

// A front end's defaults differ only where the table says so.
func TestDefaults(t *testing.T) {
	cli, ed := Defaults(CLI), Defaults(Editor)
	if cli.Timeout != 10*time.Minute || ed.Timeout != time.Minute {
		t.Errorf("timeouts %v and %v", cli.Timeout, ed.Timeout)
	}
	if cli.ExploreTime != analyzer.ExploreAuto || ed.ExploreTime != 100*time.Millisecond {
		t.Errorf("explore times %v and %v", cli.ExploreTime, ed.ExploreTime)
	}
	if cli.SuggestFixes || !ed.SuggestFixes {
		t.Errorf("suggest-fixes %v and %v", cli.SuggestFixes, ed.SuggestFixes)
	}
	if cli.Mp != 5 || cli.Ma != 2 || cli.Directed != 5 || !cli.AutoInstructions || cli.MaxMemory == 0 || cli.SymInputs != analyzer.SymInputsAuto {
		t.Errorf("CLI defaults %+v", cli)
	}
}

// The flags set what augur.toml's keys set, lists add up, and a bad value
// is refused with the setting's own message.
func TestFlags(t *testing.T) {
	var v Values
	fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
	fs.SetOutput(new(strings.Builder))
	AddFlags(fs, &v, nil)
	err := fs.Parse([]string{"--mp", "3", "--detect-only", "--sym-arg", "4", "--sym-arg", "2", "--sym-file", "in:8",
		"--max-instructions", "1000", "--explore-instructions", "0", "--timeout", "2m", "--max-memory", "512MiB", "--memory-model", "weak", "--directed", "0"})
	if err != nil {
		t.Fatal(err)
	}
	if v.Mp != 3 || !v.DetectOnly || len(v.SymArgs) != 2 || v.SymArgs[1] != 2 || v.SymFiles["in"] != 8 || v.MaxInstructions != 1000 || v.AutoInstructions ||
		v.ExploreInstructions != analyzer.NoExploreLimit || v.Timeout != 2*time.Minute || v.MaxMemory != 512<<20 {
		t.Errorf("after the flags: %+v", v)
	}
	o := v.Options(vm.Config{})
	if o.Directed != -1 || o.Run.MaxInstructions != 1000 || o.Run.Limits.MaxMemory != 512<<20 || o.MemoryModel.String() != "weak" {
		t.Errorf("options: directed %d, run %+v, model %v", o.Directed, o.Run, o.MemoryModel)
	}
	for _, bad := range [][]string{{"--mp", "0"}, {"--searcher", "best"}, {"--timeout", "-1s"}, {"--sym-file", "x"}} {
		fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
		fs.SetOutput(new(strings.Builder))
		var w Values
		AddFlags(fs, &w, nil)
		if err := fs.Parse(bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	for _, s := range Table {
		if (fs.Lookup(s.Key) != nil) != (s.Fronts&CLI != 0) {
			t.Errorf("--%s: a flag %v, the table says %v", s.Key, fs.Lookup(s.Key) != nil, s.Fronts)
		}
	}
}

// A command's own defaults take the place of the table's, in its values
// and its help; the flags it does not register stay unset.
func TestCommandDefaults(t *testing.T) {
	var v Values
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var help strings.Builder
	fs.SetOutput(&help)
	AddFlags(fs, &v, map[string]any{"timeout": "5m", "max-instructions": int64(0)}, "timeout", "max-instructions", "seed")
	if v.Timeout != 5*time.Minute || v.AutoInstructions || v.MaxInstructions != 0 || v.Seed != 1 || v.Mp != 0 {
		t.Errorf("run's values %+v", v)
	}
	fs.PrintDefaults()
	if !strings.Contains(help.String(), "(default 5m)") || fs.Lookup("mp") != nil {
		t.Errorf("run's help:\n%s", help.String())
	}
}

// The VS Code extension declares every setting, with the editor's default
// of the table: package.json cannot be made from the table at build time,
// so this keeps the two the same.
func TestExtensionDeclaresEverySetting(t *testing.T) {
	data, err := os.ReadFile("../../vscode-extension/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Contributes struct {
			Configuration struct {
				Properties map[string]struct {
					Default any `json:"default"`
				} `json:"properties"`
			} `json:"configuration"`
		} `json:"contributes"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatal(err)
	}
	props := pkg.Contributes.Configuration.Properties
	for _, s := range Table {
		p, ok := props["augur."+s.Client]
		if !ok {
			t.Errorf("package.json does not declare augur.%s", s.Client)
			continue
		}
		want := s.defaultFor(Editor)
		if n, ok := want.(int64); ok {
			want = float64(n) // JSON numbers
		}
		if fmt.Sprint(p.Default) != fmt.Sprint(want) {
			t.Errorf("augur.%s: package.json's default %v, the table's %v", s.Client, p.Default, want)
		}
	}
}
