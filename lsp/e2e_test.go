package lsp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"augur/internal/testutil"
)

// expectations reads the `// race: NAME CATEGORY` annotations of a file:
// 0-based line -> its categories, sorted, each once.
func expectations(t *testing.T, path string) map[int][]string {
	out := map[int][]string{}
	for _, a := range testutil.RaceAnnotations(t, path) {
		if !slices.Contains(out[a.Line-1], a.Category) {
			out[a.Line-1] = append(out[a.Line-1], a.Category)
		}
	}
	for _, cats := range out {
		sort.Strings(cats)
	}
	return out
}

// codesByLine gathers the categories of the race diagnostics on each
// 0-based line, sorted, each once, as expectations gives them.
func codesByLine(ds []Diagnostic) map[int][]string {
	out := map[int][]string{}
	for _, d := range raceDiags(ds) {
		if l := d.Range.Start.Line; !slices.Contains(out[l], d.Code) {
			out[l] = append(out[l], d.Code)
		}
	}
	for _, codes := range out {
		sort.Strings(codes)
	}
	return out
}

// analyzed starts a server on a workspace holding a copy of a testdata/lsp
// program (or of another testdata directory's, as workspaceWith), opens it and waits for its first analysis to end. Some races
// are found only by the exploration after the plan, which the editor bounds
// by 100 ms, so a loaded machine could stop before them; the workspace's
// augur.toml bounds it by instructions instead, so every run ends at the
// same schedule.
func analyzed(t *testing.T, name string) (*client, string) {
	t.Helper()
	root := workspaceWith(t, name)
	name = filepath.Base(name)
	if err := os.WriteFile(filepath.Join(root, "augur.toml"), []byte("explore-time = \"auto\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, name)
	c := start(t, root, nil)
	c.open(path)
	c.waitAnalyses(1)
	return c, path
}

var severities = map[string]int{"spec-violated": 1, "output-differs": 2, "single-ordering": 3, "k-witness-harmless": 4}

type dataField struct {
	RaceID   string `json:"raceId"`
	Category string `json:"category"`
	Evidence bool   `json:"evidence"`
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
	c, path := analyzed(t, "account.c")

	c.mu.Lock()
	var stages []string
	for _, v := range c.progress {
		if m, ok := v["message"].(string); ok {
			stages = append(stages, m)
		}
	}
	c.mu.Unlock()
	joined := strings.Join(stages, "\n")
	// account.c has five races: balance's and audited's, and three on
	// receipt (its check and its free each against the other teller's
	// clearing, and the two clearings).
	for _, want := range []string{"detecting: schedule 1/5", "detecting: schedule 5/5", "classifying race 1/5", "5 races:"} {
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
		// The Races view offers to replay a race only when it has
		// evidence: a harmful one does, a harmless one does not.
		if harmful := data.Category == "spec-violated" || data.Category == "output-differs"; data.Evidence != harmful {
			t.Errorf("line %d: a %s race's data says evidence %v", d.Range.Start.Line+1, data.Category, data.Evidence)
		}
		if d.Code != data.Category || d.Severity != severities[data.Category] {
			t.Errorf("line %d: code %q severity %d, want %q %d", d.Range.Start.Line+1, d.Code, d.Severity, data.Category, severities[data.Category])
		}
		ids[data.RaceID] = true
	}
	if len(ids) != 5 {
		t.Errorf("%d distinct race ids, want 5", len(ids))
	}
	if codes := codesByLine(c.diagnostics(path)); !reflect.DeepEqual(codes, want) {
		t.Errorf("categories by line %v, want %v", codes, want)
	}
	src, _ := os.ReadFile(path)
	lines := strings.Split(string(src), "\n")
	for line, d := range got {
		expr := lines[line][d.Range.Start.Character:d.Range.End.Character]
		if len(d.RelatedInformation) == 0 || !strings.HasSuffix(d.RelatedInformation[0].Location.URI, "account.c") {
			t.Errorf("line %d: related information %+v", line+1, d.RelatedInformation)
		}
		if !strings.Contains(d.Message, "Data race on") {
			t.Errorf("line %d: message %q", line+1, d.Message)
		}
		t.Logf("line %d: %q %s", line+1, expr, d.Message)
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

// lineOf returns the 0-based line of the first line of path containing s.
func lineOf(t *testing.T, path, s string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, s) {
			return i
		}
	}
	t.Fatalf("%s has no line with %q", path, s)
	return -1
}

func pos(path string, line, char int) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": fileURI(path)},
		"position": map[string]any{"line": line, "character": char}}
}

type codeAction struct {
	Title   string `json:"title"`
	Kind    string `json:"kind"`
	Command *struct {
		Command   string            `json:"command"`
		Arguments []json.RawMessage `json:"arguments"`
	} `json:"command"`
	Edit *struct {
		Changes map[string][]struct {
			Range   Range  `json:"range"`
			NewText string `json:"newText"`
		} `json:"changes"`
		DocumentChanges []json.RawMessage `json:"documentChanges"`
	} `json:"edit"`
}

func (c *client) codeActions(path string, line int) []codeAction {
	c.t.Helper()
	var actions []codeAction
	err := c.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(path)},
		"range":        map[string]any{"start": map[string]any{"line": line, "character": 0}, "end": map[string]any{"line": line, "character": 0}},
		"context":      map[string]any{"diagnostics": []any{}}}, &actions)
	if err != nil {
		c.t.Fatalf("codeAction: %v", err)
	}
	return actions
}

func findAction(actions []codeAction, prefix string) *codeAction {
	for i := range actions {
		if strings.HasPrefix(actions[i].Title, prefix) {
			return &actions[i]
		}
	}
	return nil
}

// Hover explains a race; code actions replay its evidence into a
// transcript the client is asked to show, show an output difference,
// insert augur:ignore (which the next analysis honours) and analyze now.
func TestHoverCodeActionsAndCommands(t *testing.T) {
	c, path := analyzed(t, "account.c")

	freeLine := lineOf(t, path, "receipt = NULL;")
	var hover struct {
		Contents struct {
			Kind  string `json:"kind"`
			Value string `json:"value"`
		} `json:"contents"`
		Range Range `json:"range"`
	}
	if err := c.call("textDocument/hover", pos(path, freeLine, 3), &hover); err != nil {
		t.Fatal(err)
	}
	t.Logf("hover:\n%s", hover.Contents.Value)
	for _, want := range []string{"**augur: `receipt`** — a data race that can make the program fail (spec-violated)",
		"**What goes wrong:** If ", "runs first, the program crashes at line ", ": double free",
		"- **Order:** thread ", "**See it:**", "*Show interleaving*", "augur replay ", "**Fix:** Free the memory only after",
		"*Details:* found by ", "Mp = 5"} {
		if !strings.Contains(hover.Contents.Value, want) {
			t.Errorf("hover lacks %q:\n%s", want, hover.Contents.Value)
		}
	}
	for _, jargon := range []string{"post-race", "primary paths", "single-pre"} {
		if i := strings.Index(hover.Contents.Value, "*Details:*"); strings.Contains(hover.Contents.Value[:i], jargon) {
			t.Errorf("the hover speaks of %q before its details:\n%s", jargon, hover.Contents.Value)
		}
	}
	if hover.Contents.Kind != "markdown" || hover.Range.Start.Line != freeLine {
		t.Errorf("hover kind %q range %+v", hover.Contents.Kind, hover.Range)
	}
	var none json.RawMessage
	if err := c.call("textDocument/hover", pos(path, 0, 0), &none); err != nil || string(none) != "null" {
		t.Errorf("hover off any race: %s, %v", none, err)
	}

	// Replay evidence.
	actions := c.codeActions(path, freeLine)
	replay := findAction(actions, "Replay evidence")
	if replay == nil || findAction(actions, "Ignore this race") == nil || findAction(actions, "Analyze now") == nil {
		t.Fatalf("code actions on the free line: %+v", actions)
	}
	var res struct {
		Transcript string `json:"transcript"`
		Reproduced bool   `json:"reproduced"`
		Shown      bool   `json:"shown"`
	}
	if err := c.call("workspace/executeCommand", map[string]any{"command": replay.Command.Command,
		"arguments": replay.Command.Arguments}, &res); err != nil {
		t.Fatal(err)
	}
	if !res.Reproduced || !res.Shown || !strings.HasPrefix(res.Transcript, c.cache) || strings.HasPrefix(res.Transcript, c.root) {
		t.Errorf("replay result %+v (cache %s)", res, c.cache)
	}
	transcript, _ := os.ReadFile(res.Transcript)
	for _, want := range []string{"# augur replay: spec-violated race on `receipt`", "**racing**", "double free"} {
		if !strings.Contains(string(transcript), want) {
			t.Errorf("transcript lacks %q:\n%s", want, transcript)
		}
	}
	c.mu.Lock()
	showed := false
	for _, r := range c.requests {
		if r.Method == "window/showDocument" && strings.Contains(string(r.Params), res.Transcript) {
			showed = true
		}
	}
	c.mu.Unlock()
	if !showed {
		t.Error("the server did not ask the client to show the transcript")
	}

	// Show output difference, on the output-differs race.
	balanceLine := lineOf(t, path, "balance = balance + amount")
	diff := findAction(c.codeActions(path, balanceLine), "Show output difference")
	if diff == nil {
		t.Fatal("no Show output difference action on the output-differs race")
	}
	if err := c.call("workspace/executeCommand", map[string]any{"command": diff.Command.Command,
		"arguments": diff.Command.Arguments}, &res); err != nil {
		t.Fatal(err)
	}
	table, _ := os.ReadFile(res.Transcript)
	if !strings.Contains(string(table), "| ≠ |") || !strings.Contains(string(table), "balance") {
		t.Errorf("output difference:\n%s", table)
	}

	// Ignore: the action's edit appends the marker to the access line.
	ignore := findAction(c.codeActions(path, balanceLine), "Ignore this race")
	edits := ignore.Edit.Changes[fileURI(path)]
	if len(edits) != 1 || edits[0].NewText != " augur:ignore" || edits[0].Range.Start.Line != balanceLine {
		t.Fatalf("ignore edit: %+v", ignore.Edit)
	}
	// The same through the command, which asks the client to apply it.
	var applied bool
	args, _ := json.Marshal(mustRaceID(t, c, path, balanceLine))
	if err := c.call("workspace/executeCommand", map[string]any{"command": "augur.server.ignoreRace",
		"arguments": []json.RawMessage{args}}, &applied); err != nil || !applied {
		t.Fatalf("ignoreRace: %v, applied %v", err, applied)
	}
	// A client that answers applyEdit with null did not apply it; the
	// server says so and stays up (it once dereferenced the null).
	c.mu.Lock()
	c.applyNull = true
	c.mu.Unlock()
	if err := c.call("workspace/executeCommand", map[string]any{"command": "augur.server.ignoreRace",
		"arguments": []json.RawMessage{args}}, &applied); err != nil || applied {
		t.Fatalf("ignoreRace answered null: %v, applied %v", err, applied)
	}
	// Apply it as an editor would, save, and the race is gone.
	src, _ := os.ReadFile(path)
	lines := strings.Split(string(src), "\n")
	lines[balanceLine] += edits[0].NewText
	c.save(path, strings.Join(lines, "\n"))
	c.waitAnalyses(2)
	for _, d := range raceDiags(c.diagnostics(path)) {
		if d.Range.Start.Line == balanceLine {
			t.Errorf("the ignored race is still reported: %+v", d)
		}
	}
	left := expectations(t, path)
	delete(left, balanceLine)
	if codes := codesByLine(c.diagnostics(path)); !reflect.DeepEqual(codes, left) {
		t.Errorf("after ignoring balance's race the categories by line are %v, want %v", codes, left)
	}

	// Analyze now starts an analysis at once.
	now := findAction(c.codeActions(path, freeLine), "Analyze now")
	if err := c.call("workspace/executeCommand", map[string]any{"command": now.Command.Command,
		"arguments": now.Command.Arguments}, nil); err != nil {
		t.Fatal(err)
	}
	c.waitAnalyses(3)

	// Unknown commands and bad arguments are errors, not crashes; a race
	// the server does not have (a lens drawn before the last save) is no
	// error: the command answers null and says the race is gone.
	if err := c.call("workspace/executeCommand", map[string]any{"command": "augur.nope"}, nil); err == nil {
		t.Error("an unknown command succeeded")
	}
	if err := c.call("workspace/executeCommand", map[string]any{"command": "augur.server.replayEvidence",
		"arguments": []any{42}}, nil); err == nil || !strings.Contains(err.Error(), "not a string") {
		t.Errorf("replay with a number for a race id: %v", err)
	}
	var gone json.RawMessage
	if err := c.call("workspace/executeCommand", map[string]any{"command": "augur.server.replayEvidence",
		"arguments": []any{"no-such-race"}}, &gone); err != nil || string(gone) != "null" {
		t.Errorf("replay of an unknown race: %s, %v; want null and no error", gone, err)
	}
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// mustRaceID returns the race id of the diagnostic on a line.
func mustRaceID(t *testing.T, c *client, path string, line int) string {
	t.Helper()
	for _, d := range raceDiags(c.diagnostics(path)) {
		if d.Range.Start.Line == line {
			var data dataField
			json.Unmarshal(d.Data, &data)
			return data.RaceID
		}
	}
	t.Fatalf("no race diagnostic on line %d", line+1)
	return ""
}

func change(c *client, path string, version, line int, text string) {
	c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(path), "version": version},
		"contentChanges": []any{map[string]any{
			"range": map[string]any{"start": map[string]any{"line": line, "character": 0},
				"end": map[string]any{"line": line, "character": 0}},
			"text": text}}})
}

func diagLines(ds []Diagnostic) []int {
	var out []int
	for _, d := range raceDiags(ds) {
		out = append(out, d.Range.Start.Line)
	}
	sort.Ints(out)
	return out
}

// diagMessages lists the race diagnostics' messages in line order.
func diagMessages(ds []Diagnostic) []string {
	rs := raceDiags(ds)
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Range.Start.Line < rs[j].Range.Start.Line })
	var out []string
	for _, d := range rs {
		out = append(out, d.Message)
	}
	return out
}

// checkMessagesMoved checks that every line of file the messages name
// moved by delta, and nothing else changed.
func checkMessagesMoved(t *testing.T, file string, before, after []string, delta int) {
	t.Helper()
	at := regexp.MustCompile(`(` + regexp.QuoteMeta(file) + `:|line )(\d+)`)
	if len(after) != len(before) {
		t.Fatalf("messages before and after: %q %q", before, after)
	}
	for i, m := range before {
		want := at.ReplaceAllStringFunc(m, func(loc string) string {
			sub := at.FindStringSubmatch(loc)
			n, _ := strconv.Atoi(sub[2])
			return fmt.Sprintf("%s%d", sub[1], n+delta)
		})
		if after[i] != want {
			t.Errorf("after a save that moved every line by %d:\n got %s\nwant %s", delta, after[i], want)
		}
	}
}

// A save that only moves lines moves the lines the messages name, the
// racing object's allocation line among them (retire.c's race on a heap
// object).
func TestMovedLinesMoveTheMessages(t *testing.T) {
	c, path := analyzed(t, "retire.c")
	before := diagMessages(c.diagnostics(path))
	allocated := func() (lines []int) {
		for _, d := range raceDiags(c.diagnostics(path)) {
			for _, ri := range d.RelatedInformation {
				if strings.Contains(ri.Message, "allocated here") {
					lines = append(lines, ri.Location.Range.Start.Line)
				}
			}
		}
		return lines
	}
	// The heap object is named by the expression that reads it.
	if !strings.Contains(strings.Join(before, "\n"), "Data race on `j->id` with the free in retire") {
		t.Errorf("the heap race is not named by its expression: %q", before)
	}
	allocBefore := allocated()
	if len(allocBefore) == 0 {
		t.Fatalf("no diagnostic points at the allocation")
	}
	src, _ := os.ReadFile(path)
	// The editor has the new text (a full change), then saves it.
	text := "// one line\n// and another\n" + string(src)
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": fileURI(path), "version": 2},
		"contentChanges": []map[string]any{{"text": text}}})
	c.save(path, text)
	c.waitAnalyses(2)
	if end := c.lastEnd(); !strings.Contains(end, "results reused") {
		t.Errorf("the comment-only save ended with %q, want results reused", end)
	}
	checkMessagesMoved(t, "retire.c", before, diagMessages(c.diagnostics(path)), 2)
	for i, l := range allocated() {
		if l != allocBefore[i]+2 {
			t.Errorf("the allocation is at line %d after the save, want %d", l+1, allocBefore[i]+3)
		}
	}
	c.shutdown()
}

// Typing moves the published diagnostics with the code; saving a change
// that leaves the code as it was (comments, blank lines) reuses the
// results without analyzing again, and an unchanged set is not sent again.
func TestEditsMoveDiagnosticsAndCommentOnlySavesReuse(t *testing.T) {
	c, path := analyzed(t, "account.c")
	before := diagLines(c.diagnostics(path))
	beforeMsgs := diagMessages(c.diagnostics(path))

	change(c, path, 2, 0, "// Two new lines of comment\n// above everything.\n")
	c.waitFor("diagnostics moved by two lines", func() bool {
		now := diagLines(c.diags[fileURI(path)])
		return len(now) == len(before) && now[0] == before[0]+2
	})

	src, _ := os.ReadFile(path)
	c.save(path, "// Two new lines of comment\n// above everything.\n"+string(src))
	c.waitAnalyses(2)
	if end := c.lastEnd(); !strings.Contains(end, "results reused") {
		t.Errorf("the comment-only save ended with %q, want results reused", end)
	}
	after := diagLines(c.diagnostics(path))
	for i := range before {
		if after[i] != before[i]+2 {
			t.Errorf("after the save the diagnostics sit on lines %v, want %v moved by 2", after, before)
			break
		}
	}
	// The lines the messages name moved too (the reused results say what
	// a fresh analysis would).
	checkMessagesMoved(t, "account.c", beforeMsgs, diagMessages(c.diagnostics(path)), 2)
	c.mu.Lock()
	detecting := 0
	for _, v := range c.progress {
		if m, _ := v["message"].(string); strings.HasPrefix(m, "detecting") {
			detecting++
		}
	}
	pubs := c.pubs[fileURI(path)]
	c.mu.Unlock()

	// Saving again without any change: reused again, nothing re-sent.
	c.save(path, "// Two new lines of comment\n// above everything.\n"+string(src))
	c.waitAnalyses(3)
	c.mu.Lock()
	again := c.pubs[fileURI(path)]
	detecting2 := 0
	for _, v := range c.progress {
		if m, _ := v["message"].(string); strings.HasPrefix(m, "detecting") {
			detecting2++
		}
	}
	c.mu.Unlock()
	if again != pubs {
		t.Errorf("an unchanged diagnostic set was published again (%d publications, then %d)", pubs, again)
	}
	if detecting2 != detecting {
		t.Errorf("a save without code change ran detection again")
	}

	// A real change is analyzed again.
	c.save(path, strings.Replace(string(src), "audited = 1;", "audited = 2;", 1))
	c.waitAnalyses(4)
	if end := c.lastEnd(); strings.Contains(end, "reused") || !strings.Contains(end, "5 races") {
		t.Errorf("a code change ended with %q", end)
	}
	c.shutdown()
}

// The memory model setting reaches the analysis: under "weak" the crash
// that needs a late store is spec-violated, and the hover says which
// store; switching the setting back to "sc" re-analyzes without it.
func TestMemoryModelSetting(t *testing.T) {
	root := workspaceWith(t, "weak/no_sync_bug.c")
	path := filepath.Join(root, "no_sync_bug.c")
	c := start(t, root, map[string]any{"memoryModel": "weak"})
	c.open(path)
	c.waitAnalyses(1)
	var violated *Diagnostic
	for _, d := range raceDiags(c.diagnostics(path)) {
		if d.Code == "spec-violated" {
			violated = &d
			break
		}
	}
	if violated == nil {
		t.Fatalf("no spec-violated race under the weak model: %+v", c.diagnostics(path))
	}
	var hover struct {
		Contents struct {
			Value string `json:"value"`
		} `json:"contents"`
	}
	if err := c.call("textDocument/hover", pos(path, violated.Range.Start.Line, violated.Range.Start.Character), &hover); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(hover.Contents.Value, "It needs the weak memory model: only if the store to x at") {
		t.Errorf("hover does not explain the weak-model consequence:\n%s", hover.Contents.Value)
	}
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"augur": map[string]any{"memoryModel": "sc"}}})
	c.waitAnalyses(2)
	for _, d := range raceDiags(c.diagnostics(path)) {
		if d.Code == "spec-violated" {
			t.Errorf("still spec-violated under sc: %s", d.Message)
		}
	}
	c.shutdown()
}

// A call to a function defined nowhere is a warning at the call naming it,
// and the progress says the analysis is incomplete, never "no races"; with
// undefined = havoc the analysis goes on past it and finds the race.
func TestUndefinedFunctionIsIncompleteAtTheCall(t *testing.T) {
	root := workspaceWith(t, "incomplete/undefined_call.c")
	path := filepath.Join(root, "undefined_call.c")
	c := start(t, root, nil)
	c.open(path)
	c.waitAnalyses(1)
	var gap *Diagnostic
	for _, d := range c.diagnostics(path) {
		if d.Code == "incomplete" {
			gap = &d
		}
	}
	if gap == nil || gap.Severity != 2 || gap.Range.Start.Line != 22 || !strings.Contains(gap.Message, "'checksum'") ||
		!strings.Contains(gap.Message, `"havoc"`) {
		t.Fatalf("want a warning at line 23 naming checksum: %+v", c.diagnostics(path))
	}
	if len(raceDiags(c.diagnostics(path))) != 0 {
		t.Fatalf("races past a call augur could not follow: %+v", c.diagnostics(path))
	}
	c.mu.Lock()
	var said []string
	for _, v := range c.progress {
		if m, ok := v["message"].(string); ok {
			said = append(said, m)
		}
	}
	c.mu.Unlock()
	if last := said[len(said)-1]; !strings.Contains(last, "incomplete (augur could not follow the call to 'checksum'") {
		t.Errorf("progress ended %q, want it to say the analysis is incomplete", last)
	}
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"augur": map[string]any{"undefined": "havoc"}}})
	c.waitAnalyses(2)
	for _, d := range c.diagnostics(path) {
		if d.Code == "incomplete" {
			t.Errorf("still incomplete under havoc: %s", d.Message)
		}
	}
	if len(raceDiags(c.diagnostics(path))) == 0 {
		t.Errorf("no race found past the havocked call: %+v", c.diagnostics(path))
	}
	c.shutdown()
}

// A C++ program is analyzed like a C one: std::thread, lambdas and the
// standard streams run, and its race is a diagnostic with C++ names.
func TestCppProgramGetsRaceDiagnostics(t *testing.T) {
	root := workspaceWith(t, "race/cpp_counter.cpp")
	path := filepath.Join(root, "cpp_counter.cpp")
	c := start(t, root, nil)
	c.open(path)
	c.waitAnalyses(1)
	races := raceDiags(c.diagnostics(path))
	if len(races) == 0 {
		t.Fatalf("no race diagnostics for a racy C++ program: %+v", c.diagnostics(path))
	}
	for _, d := range c.diagnostics(path) {
		if d.Code == "incomplete" || d.Code == "analysis-failed" {
			t.Errorf("C++ analysis incomplete: %s", d.Message)
		}
	}
	if d := races[0]; d.Range.Start.Line != 15 || !strings.Contains(d.Message, "main::$_0::operator()") {
		t.Errorf("race diagnostic at line %d: %s", d.Range.Start.Line+1, d.Message)
	}
	c.shutdown()
}

// The server keeps a history per target under its cache (docs/detection.md):
// a save that changes code elsewhere is analyzed anew and builds on it, so
// the races stay, and the history counts both analyses.
func TestHistoryAcrossSaves(t *testing.T) {
	c, path := analyzed(t, "account.c")
	first := raceDiags(c.diagnostics(path))
	if len(first) == 0 {
		t.Fatal("no race diagnostics")
	}
	files, _ := filepath.Glob(filepath.Join(c.cache, "history", "*.json"))
	if len(files) != 1 {
		t.Fatalf("history files: %v", files)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c.save(path, string(src)+"\nint unused_helper(int x) { return x + 1; }\n")
	c.waitAnalyses(2)
	if got := raceDiags(c.diagnostics(path)); len(got) != len(first) {
		t.Errorf("after a save elsewhere: %d race diagnostics, want %d", len(got), len(first))
	}
	var hist struct {
		Analyses int `json:"analyses"`
		Races    []struct {
			Analyses int `json:"analyses"`
		} `json:"races"`
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &hist); err != nil {
		t.Fatal(err)
	}
	if hist.Analyses != 2 || len(hist.Races) == 0 || hist.Races[0].Analyses != 2 {
		t.Errorf("history after two analyses: %+v", hist)
	}
	c.shutdown()
}

// A client that cannot open documents on request, or that answers
// window/showDocument with null, still sees what a replay and an output
// difference showed: the server sends it the summary and the transcript's
// path as a message.
func TestReplayFallsBackToAMessage(t *testing.T) {
	t.Run("no showDocument", func(t *testing.T) {
		root := workspaceWith(t, "account.c")
		replayFallsBack(t, root, startPlain(t, root), false)
	})
	t.Run("showDocument answered null", func(t *testing.T) {
		root := workspaceWith(t, "account.c")
		c := newClient(t, root)
		c.showNull = true
		replayFallsBack(t, root, startClient(t, c, nil), true)
	})
}

func replayFallsBack(t *testing.T, root string, c *client, canShow bool) {
	path := filepath.Join(root, "account.c")
	c.open(path)
	c.waitAnalyses(1)
	run := func(title string, line int) (summary string) {
		t.Helper()
		a := findAction(c.codeActions(path, line), title)
		if a == nil {
			t.Fatalf("no %q action on line %d", title, line+1)
		}
		var res struct {
			Transcript string `json:"transcript"`
			Shown      bool   `json:"shown"`
			Summary    string `json:"summary"`
		}
		if err := c.call("workspace/executeCommand", map[string]any{"command": a.Command.Command,
			"arguments": a.Command.Arguments}, &res); err != nil {
			t.Fatal(err)
		}
		if res.Shown || res.Summary == "" || strings.Contains(res.Summary, "..") {
			t.Errorf("%s: %+v", title, res)
		}
		c.waitFor("the message with the transcript", func() bool {
			for _, m := range c.logs {
				if strings.Contains(m, res.Summary) && strings.Contains(m, res.Transcript) {
					return true
				}
			}
			return false
		})
		return res.Summary
	}
	if s := run("Replay evidence", lineOf(t, path, "receipt = NULL;")); !strings.Contains(s, "reproduced it") ||
		!strings.Contains(s, "double free") {
		t.Errorf("replay summary: %s", s)
	}
	if s := run("Show output difference", lineOf(t, path, "balance = balance + amount")); !strings.Contains(s, "print different output") {
		t.Errorf("output difference summary: %s", s)
	}
	c.mu.Lock()
	for _, r := range c.requests {
		if r.Method == "window/showDocument" && !canShow {
			t.Errorf("showDocument sent to a client without it")
		}
	}
	c.mu.Unlock()
	c.shutdown()
}

// A client that shows output differences itself (augurDiffView, the VS
// Code extension's diff editor) gets the two orders' outputs as files, the
// evidence's order first, and no window/showDocument.
func TestOutputDifferenceAsTwoFiles(t *testing.T) {
	root := workspaceWith(t, "account.c")
	path := filepath.Join(root, "account.c")
	c := diffClient(t, root, path)
	res := c.showOutputDifference(t, path, lineOf(t, path, "balance = balance + amount"))
	if !res.Shown || len(res.Outputs) != 2 {
		t.Fatalf("result %+v", res)
	}
	var outs [2]string
	for i, f := range res.Outputs {
		data, err := os.ReadFile(f)
		if err != nil || !strings.HasSuffix(f, ".txt") {
			t.Fatalf("output %d: %s: %v", i, f, err)
		}
		outs[i] = string(data)
	}
	if outs[0] == outs[1] || !strings.Contains(outs[0], "balance") {
		t.Errorf("the two outputs:\n%s\n---\n%s", outs[0], outs[1])
	}
	c.mu.Lock()
	for _, r := range c.requests {
		if r.Method == "window/showDocument" {
			t.Errorf("showDocument sent to a client that shows the difference itself: %s", r.Params)
		}
	}
	c.mu.Unlock()
	c.shutdown()
}

// diffClient starts a client with its own diff view (augurDiffView) on
// root, and waits for the first analysis of path.
func diffClient(t *testing.T, root, path string) *client {
	c := newClient(t, root)
	c.diffView = true
	c = startClient(t, c, nil)
	c.open(path)
	c.waitAnalyses(1)
	return c
}

// diffAnswer is the answer to Show output difference.
type diffAnswer struct {
	Outputs []string `json:"outputs"`
	Shown   bool     `json:"shown"`
}

// showOutputDifference runs the Show output difference action of the
// race on line of path.
func (c *client) showOutputDifference(t *testing.T, path string, line int) diffAnswer {
	t.Helper()
	a := findAction(c.codeActions(path, line), "Show output difference")
	if a == nil {
		t.Fatal("no Show output difference action on the output-differs race")
	}
	var res diffAnswer
	if err := c.call("workspace/executeCommand", map[string]any{"command": a.Command.Command,
		"arguments": a.Command.Arguments}, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// "Show interleaving" writes the race's replay as an HTML timeline (one
// lane per thread, the racing accesses marked) and asks the client to open
// it in an external program; a client with its own timeline view (the VS
// Code extension) is left to show it.
func TestShowInterleaving(t *testing.T) {
	for _, own := range []bool{false, true} {
		root := workspaceWith(t, "account.c")
		path := filepath.Join(root, "account.c")
		c := newClient(t, root)
		c.timelineView = own
		c = startClient(t, c, nil)
		c.open(path)
		c.waitAnalyses(1)
		a := findAction(c.codeActions(path, lineOf(t, path, "receipt = NULL;")), "Show interleaving")
		if a == nil {
			t.Fatal("no Show interleaving action on the spec-violated race")
		}
		var res struct {
			Transcript string `json:"transcript"`
			Shown      bool   `json:"shown"`
			Reproduced bool   `json:"reproduced"`
		}
		if err := c.call("workspace/executeCommand", map[string]any{"command": a.Command.Command,
			"arguments": a.Command.Arguments}, &res); err != nil {
			t.Fatal(err)
		}
		page, _ := os.ReadFile(res.Transcript)
		if !strings.HasSuffix(res.Transcript, ".html") || !res.Reproduced || !strings.Contains(string(page), `class="ev racing"`) ||
			!strings.Contains(string(page), `<th>thread 1 (teller)</th>`) || !strings.Contains(string(page), "data-file=") {
			t.Fatalf("timeline %s (%+v):\n%.2000s", res.Transcript, res, page)
		}
		c.mu.Lock()
		external := false
		for _, r := range c.requests {
			if r.Method == "window/showDocument" && strings.Contains(string(r.Params), `"external":true`) {
				external = true
			}
		}
		c.mu.Unlock()
		if external == own {
			t.Errorf("own view %v: external showDocument sent %v", own, external)
		}
		c.shutdown()
	}
}

// A program that looks for a file the workspace has, which augur was not
// given, gets an information diagnostic where it looks, saying the
// analysis ran without it, and a quick fix that lists the file in
// augur.toml: with no augur.toml, one made with top-level files (which
// leaves every program analyzed); with top-level settings only, a files
// line at the top; with a target there, the target's files extended.
// Once augur.toml gives the file, its diagnostic goes.
func TestFileNotGivenIsSaidWhereTheProgramLooks(t *testing.T) {
	said := func(toml string) (c *client, root, path string, got []Diagnostic, fixes []codeAction) {
		root = workspaceWith(t, "sandbox/files_not_given.c")
		path = filepath.Join(root, "files_not_given.c")
		files := map[string]string{"data.txt": "42\n", "settings.conf": "x=1\n"}
		if toml != "" {
			files["augur.toml"] = toml
		}
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		c = start(t, root, nil)
		c.open(path)
		c.waitAnalyses(1)
		for _, d := range c.diagnostics(path) {
			if d.Code == "file-not-given" {
				got = append(got, d)
			}
		}
		if len(got) > 0 {
			fixes = c.codeActions(path, int(got[0].Range.Start.Line))
		}
		return c, root, path, got, fixes
	}
	giving := func(fixes []codeAction, name string) *codeAction {
		f := findAction(fixes, "Give "+name+" to the program (augur.toml files)")
		if f == nil || f.Edit == nil {
			return nil
		}
		return f
	}

	// The lines (0-based) of the program's first look for each file.
	src, err := os.ReadFile("../testdata/sandbox/files_not_given.c")
	if err != nil {
		t.Fatal(err)
	}
	lineOf := func(text string) int {
		i := slices.IndexFunc(strings.Split(string(src), "\n"), func(l string) bool { return strings.Contains(l, text) })
		if i < 0 {
			t.Fatalf("files_not_given.c has no line with %q", text)
		}
		return i
	}
	dataAt, settingsAt := lineOf(`open("data.txt"`), lineOf(`fopen("settings.conf"`)

	// No augur.toml: the fix makes one.
	c, root, path, got, fixes := said("")
	if len(got) != 2 || got[0].Range.Start.Line != dataAt || got[1].Range.Start.Line != settingsAt || got[0].Severity != 3 ||
		!strings.Contains(got[0].Message, "looks for data.txt here, and the workspace has that file") ||
		!strings.Contains(got[0].Message, `top-level files, which every program of the workspace gets: files = ["data.txt"]`) {
		t.Errorf("with no augur.toml: want informations at lines %d and %d, got %+v", dataAt+1, settingsAt+1, c.diagnostics(path))
	}
	f := giving(fixes, "data.txt")
	if f == nil || len(f.Edit.DocumentChanges) != 2 || !strings.Contains(string(f.Edit.DocumentChanges[0]), `"kind":"create"`) ||
		!strings.Contains(string(f.Edit.DocumentChanges[0]), fileURI(filepath.Join(root, "augur.toml"))) ||
		!strings.Contains(string(f.Edit.DocumentChanges[1]), `"newText":"files = [\"data.txt\"]\n"`) {
		t.Errorf("with no augur.toml: want a fix that makes augur.toml, got %+v", fixes)
	}
	c.shutdown()

	// Top-level settings only: a files line at the top; applied, the
	// file is given and its diagnostic goes.
	c, root, path, _, fixes = said("timeout = \"2m\"\n")
	f = giving(fixes, "data.txt")
	cfg := filepath.Join(root, "augur.toml")
	if f == nil || len(f.Edit.Changes[fileURI(cfg)]) != 1 {
		t.Fatalf("with top-level settings: want a fix that edits augur.toml, got %+v", fixes)
	}
	if e := f.Edit.Changes[fileURI(cfg)][0]; e.Range.Start.Line != 0 || e.Range.Start.Character != 0 || e.NewText != "files = [\"data.txt\"]\n" {
		t.Errorf("with top-level settings: edit %+v", e)
	}
	if err := os.WriteFile(cfg, []byte("files = [\"data.txt\"]\ntimeout = \"2m\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": fileURI(cfg), "type": 2}}})
	c.waitFor("settings.conf's information alone", func() bool {
		var left []string
		for _, d := range c.diags[fileURI(path)] { // waitFor holds c.mu
			if d.Code == "file-not-given" {
				left = append(left, d.Message)
			}
		}
		return len(left) == 1 && strings.Contains(left[0], "settings.conf")
	})
	c.shutdown()

	// A target that lists data.txt: its files line gets settings.conf.
	c, root, path, got, fixes = said("[[target]]\nsources = [\"files_not_given.c\"]\nfiles = [\"data.txt\"]\n")
	if len(got) != 1 || got[0].Range.Start.Line != settingsAt ||
		!strings.Contains(got[0].Message, `list it in the target's files in augur.toml: files = ["settings.conf"]`) {
		t.Errorf("with data.txt given: want one information at line %d naming settings.conf, got %+v", settingsAt+1, c.diagnostics(path))
	}
	f = giving(fixes, "settings.conf")
	cfg = filepath.Join(root, "augur.toml")
	if f == nil || len(f.Edit.Changes[fileURI(cfg)]) != 1 {
		t.Fatalf("with a target: want a fix that edits augur.toml, got %+v", fixes)
	}
	if e := f.Edit.Changes[fileURI(cfg)][0]; e.Range.Start.Line != 2 || e.Range.Start.Character != 19 || e.NewText != `, "settings.conf"` {
		t.Errorf("with a target: edit %+v", e)
	}
	c.shutdown()

	// A target with no files: a files line above its sources.
	c, root, _, _, fixes = said("[[target]]\nname = \"p\"\nsources = [\"files_not_given.c\"]\n")
	f = giving(fixes, "data.txt")
	cfg = filepath.Join(root, "augur.toml")
	if f == nil || len(f.Edit.Changes[fileURI(cfg)]) != 1 {
		t.Fatalf("with a target without files: want a fix, got %+v", fixes)
	}
	if e := f.Edit.Changes[fileURI(cfg)][0]; e.Range.Start.Line != 2 || e.Range.Start.Character != 0 || e.NewText != "files = [\"data.txt\"]\n" {
		t.Errorf("with a target without files: edit %+v", e)
	}
	c.shutdown()

	// An inline target table: no line can be added safely, so no fix;
	// the information still says what to write.
	c, _, path, got, fixes = said("target = [{sources = [\"files_not_given.c\"]}]\n")
	if len(got) != 2 || giving(fixes, "data.txt") != nil {
		t.Errorf("with an inline target: want the informations and no fix, got %+v and %+v", c.diagnostics(path), fixes)
	}
	c.shutdown()
}

// A program that exits with a nonzero status before it makes a second
// thread gets an information on its first line saying so, with its last
// words on standard error, rather than a clean file.
func TestEarlyExitIsSaidOnTheFirstLine(t *testing.T) {
	root := workspaceWith(t, "incomplete/needs_args.c")
	path := filepath.Join(root, "needs_args.c")
	c := start(t, root, nil)
	c.open(path)
	c.waitAnalyses(1)
	said := diagWithCode(c.diagnostics(path), "exited-early")
	if said == nil || said.Severity != 3 || said.Range.Start.Line != 0 ||
		!strings.Contains(said.Message, `exited with status 2 on its own inputs before it created a second thread (its last words on standard error: "usage: needs_args NAME COUNT")`) ||
		!strings.Contains(said.Message, "give them in augur.toml (args, stdin, files)") {
		t.Errorf("want an information on line 1 saying the program exited early, got %+v", c.diagnostics(path))
	}
	c.shutdown()
}

// A race whose consequence is only in a file the program writes: the
// hover says how the two orders left the file, and a client with its own
// diff view gets the file's two versions, not two equal outputs.
func TestFileDifferenceInHoverAndDiff(t *testing.T) {
	root := workspaceWith(t, "accuracy/written_report.c")
	path := filepath.Join(root, "written_report.c")
	c := diffClient(t, root, path)
	line := lineOf(t, path, "int m = mode;")
	h := c.hover(path, line, 10)
	if !strings.Contains(h, "The program writes different contents to report.txt depending on which runs first.") ||
		!strings.Contains(h, "**File `report.txt`:** at line 1 of the file, one order leaves `mode ") {
		t.Fatalf("hover:\n%s", h)
	}
	res := c.showOutputDifference(t, path, line)
	if len(res.Outputs) != 2 {
		t.Fatalf("result %+v", res)
	}
	var vs []string
	for _, f := range res.Outputs {
		data, err := os.ReadFile(f)
		if err != nil || !strings.HasSuffix(f, "-report.txt.txt") {
			t.Fatalf("%s: %v", f, err)
		}
		vs = append(vs, string(data))
	}
	if vs[0] == vs[1] || !strings.HasPrefix(vs[0], "mode ") || !strings.HasPrefix(vs[1], "mode ") {
		t.Errorf("the file's two versions: %q, %q", vs[0], vs[1])
	}
	c.shutdown()
}
