package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A project with no augur.toml, whose main calls into the files beside
// it (testdata/project/tally): opening main.c analyzes the whole
// program, completed from the workspace as a linker would, and the race
// inside tally.c is on tally.c's lines. The analysis's last message (the
// log, the status bar) says which files were taken and why, and a save
// of a file taken re-analyzes the program. Another program's file
// (other.c) and one that does not compile (broken.c) sit beside it and
// are not taken.
func TestAProjectWithoutConfigurationIsCompletedFromTheWorkspace(t *testing.T) {
	root := workspaceWith(t)
	for _, f := range []string{"main.c", "tally.c", "tally.h", "log.c", "other.c", "broken.c"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "project", "tally", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := start(t, root, nil)
	c.open(filepath.Join(root, "main.c"))
	c.waitAnalyses(1)
	tally := filepath.Join(root, "tally.c")
	if len(raceDiags(c.diagnostics(tally))) == 0 {
		t.Fatalf("no race in tally.c: main.c's diagnostics %+v", c.diagnostics(filepath.Join(root, "main.c")))
	}
	for _, d := range c.diagnostics(filepath.Join(root, "main.c")) {
		if d.Code == "incomplete" {
			t.Errorf("the call into tally.c was not followed: %s", d.Message)
		}
	}
	last := c.lastEnd()
	for _, want := range []string{"tally.c (defines tally_start, used by main.c)", "log.c (defines log_line, used by tally.c)"} {
		if !strings.Contains(last, want) {
			t.Errorf("the analysis ended %q, which does not say it took %s", last, want)
		}
	}
	data, _ := os.ReadFile(tally)
	c.save(tally, strings.Replace(string(data), "\tt->hits++;\n\treturn NULL;\n}\n\nstruct", "\tpthread_mutex_lock(&t->lock);\n\tt->hits++;\n\tpthread_mutex_unlock(&t->lock);\n\treturn NULL;\n}\n\nstruct", 1))
	c.waitAnalyses(2)
	if ds := raceDiags(c.diagnostics(tally)); len(ds) != 0 {
		t.Errorf("the race fixed in tally.c is still shown after its save: %+v", ds)
	}
	c.shutdown()
}
