package lsp_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var raceComment = regexp.MustCompile(`//\s*race:\s*(\S+)\s+(\S+)`)

// expectations reads the `// race: NAME CATEGORY` annotations of a file:
// 0-based line -> category.
func expectations(t *testing.T, path string) map[int]string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[int]string{}
	sc := bufio.NewScanner(f)
	for n := 0; sc.Scan(); n++ {
		if m := raceComment.FindStringSubmatch(sc.Text()); m != nil {
			out[n] = m[2]
		}
	}
	return out
}

var severities = map[string]int{"spec-violated": 1, "output-differs": 2, "single-ordering": 3, "k-witness-harmless": 4}

type dataField struct {
	RaceID   string `json:"raceId"`
	Category string `json:"category"`
}

// raceDiags keeps the diagnostics from augur that are about races.
func raceDiags(ds []Diagnostic) []Diagnostic {
	var out []Diagnostic
	for _, d := range ds {
		if d.Source == "augur" && len(d.Data) > 0 {
			out = append(out, d)
		}
	}
	return out
}

// Opening a program publishes its races at once as "classifying…", then
// one diagnostic per racing access with the category as code and
// severity, on the accessed expression, pointing at the other access.
func TestOpenPublishesClassifiedRaces(t *testing.T) {
	root := workspaceWith(t, "account.c")
	path := filepath.Join(root, "account.c")
	c := start(t, root, nil)
	c.open(path)
	c.waitAnalyses(1)

	c.mu.Lock()
	var stages []string
	for _, v := range c.progress {
		if m, ok := v["message"].(string); ok {
			stages = append(stages, m)
		}
	}
	c.mu.Unlock()
	joined := strings.Join(stages, "\n")
	for _, want := range []string{"detecting: schedule 1/5", "detecting: schedule 5/5", "classifying race 1/3", "3 races:"} {
		if !strings.Contains(joined, want) {
			t.Errorf("progress never said %q; it said:\n%s", want, joined)
		}
	}

	want := expectations(t, path)
	got := map[int]Diagnostic{}
	ids := map[string]bool{}
	for _, d := range raceDiags(c.diagnostics(path)) {
		got[d.Range.Start.Line] = d
		var data dataField
		if err := json.Unmarshal(d.Data, &data); err != nil || data.RaceID == "" {
			t.Errorf("line %d: data %s has no race id", d.Range.Start.Line+1, d.Data)
		}
		ids[data.RaceID] = true
	}
	if len(ids) != 3 {
		t.Errorf("%d distinct race ids, want 3", len(ids))
	}
	src, _ := os.ReadFile(path)
	lines := strings.Split(string(src), "\n")
	for line, cat := range want {
		d, ok := got[line]
		if !ok {
			t.Errorf("no diagnostic on line %d (%s)", line+1, cat)
			continue
		}
		if d.Code != cat || d.Severity != severities[cat] {
			t.Errorf("line %d: code %q severity %d, want %q %d", line+1, d.Code, d.Severity, cat, severities[cat])
		}
		expr := lines[line][d.Range.Start.Character:d.Range.End.Character]
		if len(d.RelatedInformation) != 1 || !strings.HasSuffix(d.RelatedInformation[0].Location.URI, "account.c") {
			t.Errorf("line %d: related information %+v", line+1, d.RelatedInformation)
		}
		if !strings.Contains(d.Message, "Data race on") {
			t.Errorf("line %d: message %q", line+1, d.Message)
		}
		t.Logf("line %d: %q %s", line+1, expr, d.Message)
	}
	for line := range got {
		if _, ok := want[line]; !ok {
			t.Errorf("unexpected race diagnostic on line %d: %+v", line+1, got[line])
		}
	}
	// The accessed expressions, exactly.
	exprs := map[string]bool{}
	for line, d := range got {
		exprs[lines[line][d.Range.Start.Character:d.Range.End.Character]] = true
	}
	var list []string
	for e := range exprs {
		list = append(list, e)
	}
	sort.Strings(list)
	if strings.Join(list, ",") != "audited,balance,receipt" {
		t.Errorf("diagnostic ranges cover %q, want the accessed variables", list)
	}
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit status %d after shutdown and exit, want 0", code)
	}
}
