package lsp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"augur/lsp"
)

// Saves in quick succession cost at most one analysis each, the stale
// ones are canceled, and what stays published is the last save's result.
func TestRapidSavesKeepTheLastResult(t *testing.T) {
	root := workspaceWith(t, "account.c")
	path := filepath.Join(root, "account.c")
	c := start(t, root, map[string]any{"debounce": "0s"})
	c.open(path)
	src, _ := os.ReadFile(path)
	text := string(src)
	// Three different programs, saved back to back; the last one has no
	// audited race at all, so its diagnostics are balance's and receipt's.
	c.save(path, strings.Replace(text, "audited = 1;", "audited = 3;", 1))
	c.save(path, strings.Replace(text, "audited = 1;", "audited = 4;", 1))
	last := strings.Replace(text, "\taudited = 1; // race: audited k-witness-harmless\n", "", 1)
	c.save(path, last)
	want := expectations(t, path)
	// Wait until every analysis begun has ended: each asks for a token
	// when it starts (its begin waits for the client's answer).
	c.waitFor("every analysis to end", func() bool {
		begun := 0
		for _, r := range c.requests {
			if r.Method == "window/workDoneProgress/create" {
				begun++
			}
		}
		return begun > 0 && c.ends() == begun && reflect.DeepEqual(codesByLine(c.diags[fileURI(path)]), want)
	})
	for _, d := range raceDiags(c.diagnostics(path)) {
		if strings.Contains(d.Message, "audited") {
			t.Errorf("a stale result is still published: %s", d.Message)
		}
		if d.Code == "classifying…" {
			t.Errorf("a race is still classifying after every analysis ended: %s", d.Message)
		}
	}
	c.mu.Lock()
	var ends []string
	for _, v := range c.progress {
		if v["kind"] == "end" {
			ends = append(ends, v["message"].(string))
		}
	}
	c.mu.Unlock()
	t.Logf("analyses ended: %q", ends)
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

func diagWithCode(ds []Diagnostic, code string) *Diagnostic {
	for i := range ds {
		if ds[i].Code == code {
			return &ds[i]
		}
	}
	return nil
}

// A file in no target, one that does not compile, a program that never
// ends, and a broken augur.toml each get a clear diagnostic.
func TestBadInputsBecomeDiagnostics(t *testing.T) {
	root := workspaceWith(t, "nomain.c", "broken.c", "loop.c")
	c := start(t, root, map[string]any{"maxInstructions": 2_000_000})

	nomain := filepath.Join(root, "nomain.c")
	c.open(nomain)
	c.waitFor("the no-target diagnostic", func() bool { return diagWithCode(c.diags[fileURI(nomain)], "no-target") != nil })
	d := diagWithCode(c.diagnostics(nomain), "no-target")
	if d.Severity != 3 || !strings.Contains(d.Message, "belongs to no target") {
		t.Errorf("no-target diagnostic: %+v", d)
	}

	broken := filepath.Join(root, "broken.c")
	c.open(broken)
	c.waitFor("clang's error", func() bool { return len(c.diags[fileURI(broken)]) > 0 })
	ds := c.diagnostics(broken)
	if len(ds) == 0 || ds[0].Source != "augur (clang)" || ds[0].Severity != 1 || ds[0].Range.Start.Line != 5 ||
		!strings.Contains(ds[0].Message, "undeclared_value") {
		t.Errorf("compile error diagnostics: %+v", ds)
	}

	loop := filepath.Join(root, "loop.c")
	c.open(loop)
	c.waitFor("the hang", func() bool { return diagWithCode(c.diags[fileURI(loop)], "hang") != nil })
	hang := diagWithCode(c.diagnostics(loop), "hang")
	if hang.Severity != 1 || !strings.Contains(hang.Message, "loops forever") {
		t.Errorf("hang diagnostic: %+v", hang)
	}

	// A broken augur.toml is shown on its line, and analyses wait for it.
	cfg := filepath.Join(root, "augur.toml")
	os.WriteFile(cfg, []byte("[[target]]\nsources = [\"loop.c\"]\nmp = \"many\"\n"), 0o644)
	c.open(cfg)
	c.waitFor("the augur.toml error", func() bool { return diagWithCode(c.diags[fileURI(cfg)], "config") != nil })
	cd := diagWithCode(c.diagnostics(cfg), "config")
	if cd.Range.Start.Line != 2 || !strings.Contains(cd.Message, "want an integer") {
		t.Errorf("augur.toml diagnostic: %+v", cd)
	}
	c.save(cfg, "[[target]]\nsources = [\"loop.c\"]\n")
	c.waitFor("the augur.toml error to clear", func() bool { return diagWithCode(c.diags[fileURI(cfg)], "config") == nil })
	// A change made outside the editor arrives through the file watcher
	// the server registered.
	c.waitFor("the file watcher registration", func() bool {
		for _, r := range c.requests {
			if r.Method == "client/registerCapability" && strings.Contains(string(r.Params), "augur.toml") {
				return true
			}
		}
		return false
	})
	os.WriteFile(cfg, []byte("[[target]]\nsources = [\"loop.c\"]\nbogus = 1\n"), 0o644)
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": fileURI(cfg), "type": 2}}})
	c.waitFor("the watched augur.toml error", func() bool { return diagWithCode(c.diags[fileURI(cfg)], "config") != nil })
	c.save(cfg, "[[target]]\nsources = [\"loop.c\"]\n")
	c.waitFor("the augur.toml error to clear again", func() bool { return diagWithCode(c.diags[fileURI(cfg)], "config") == nil })
	// With a target configured, nomain.c is still in none; the message says why.
	c.save(nomain, "int twice(int x) { return x + x; }\n")
	c.waitFor("the configured no-target message", func() bool {
		d := diagWithCode(c.diags[fileURI(nomain)], "no-target")
		return d != nil && strings.Contains(d.Message, "augur.toml")
	})
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// A panic in an analysis is reported on the file and the server keeps
// answering.
func TestAnalysisPanicIsReported(t *testing.T) {
	root := workspaceWith(t, "account.c")
	path := filepath.Join(root, "account.c")
	c := startInProcessWith(t, root, nil, lsp.Options{BeforeAnalysis: func(string) { panic("a bug in an analysis") }})
	c.open(path)
	c.waitFor("the internal error diagnostic", func() bool {
		d := diagWithCode(c.diags[fileURI(path)], "analysis-failed")
		return d != nil && strings.Contains(d.Message, "internal error") && strings.Contains(d.Message, "a bug in an analysis")
	})
	var hover json.RawMessage
	if err := c.call("textDocument/hover", pos(path, 14, 3), &hover); err != nil {
		t.Fatalf("hover after a panic: %v", err)
	}
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// A client slow to create the progress token (VS Code's extension host
// under load) holds no analysis up, and once it answers it still gets the
// analysis's report: begun with the latest state, and ended.
func TestSlowProgressCreateStillReports(t *testing.T) {
	root := workspaceWith(t, "account.c")
	path := filepath.Join(root, "account.c")
	c := newClient(t, root)
	c.holdCreates = true
	startClient(t, c, map[string]any{"debounce": "0s"})
	c.open(path)
	c.waitFor("the races classified while the token's creation is pending", func() bool {
		ds := raceDiags(c.diags[fileURI(path)])
		for _, d := range ds {
			if d.Code == "classifying…" {
				return false
			}
		}
		return len(ds) > 0
	})
	c.mu.Lock()
	early := append([]map[string]any(nil), c.progress...)
	c.mu.Unlock()
	if len(early) != 0 {
		t.Fatalf("progress sent on a token the client has not created: %v", early)
	}
	c.releaseCreates()
	c.waitAnalyses(1)
	c.mu.Lock()
	got := append([]map[string]any(nil), c.progress...)
	c.mu.Unlock()
	if first := got[0]; first["kind"] != "begin" || !strings.HasPrefix(fmt.Sprint(first["title"]), "augur: ") {
		t.Errorf("the report does not open with begin: %v", got)
	}
	if last := got[len(got)-1]; last["kind"] != "end" {
		t.Errorf("the report does not close with end: %v", got)
	}
	for _, v := range got[1 : len(got)-1] {
		if v["kind"] != "report" {
			t.Errorf("a %v inside the report: %v", v["kind"], got)
		}
	}
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// Malformed messages are answered with errors and the server stays up.
func TestMalformedMessages(t *testing.T) {
	root := workspaceWith(t, "account.c")
	c := start(t, root, nil)
	c.raw("Content-Length: 9\r\n\r\n{not json")
	c.waitFor("the parse error", func() bool { r := c.replies[0]; return r != nil && r.Error != nil })
	if e := c.replies[0].Error; e.Code != -32700 {
		t.Errorf("error %+v, want a parse error (-32700)", e)
	}
	delete(c.replies, 0)
	c.raw("Content-Length: lots\r\n\r\n")
	c.waitFor("the header error", func() bool { r := c.replies[0]; return r != nil && r.Error != nil })
	// A bad Content-Length followed by its body: the server skips the body
	// and reads the next message (it once lost its place for good).
	delete(c.replies, 0)
	c.raw("Content-Length: 5x\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":77,\"method\":\"shutdown\"}")
	c.waitFor("the second header error", func() bool { r := c.replies[0]; return r != nil && r.Error != nil })
	var hover0 json.RawMessage
	if err := c.call("textDocument/hover", pos(filepath.Join(root, "account.c"), 0, 0), &hover0); err != nil {
		t.Fatalf("after a bad Content-Length: %v", err)
	}
	c.mu.Lock()
	_, answered := c.replies[77]
	c.mu.Unlock()
	if answered {
		t.Error("the body of a frame with a bad Content-Length was run as a message")
	}
	// Params that are JSON but do not fit the method are invalid params.
	if err := c.call("textDocument/hover", pos(filepath.Join(root, "account.c"), -1, 0), nil); err == nil ||
		!strings.Contains(err.Error(), "-32602") {
		t.Errorf("a negative position: %v, want invalid params (-32602)", err)
	}
	c.raw("X-Nothing: here\r\n\r\n")
	c.notify("textDocument/didOpen", map[string]any{"textDocument": 5}) // bad params on a notification
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": "file:///not/open.c", "version": 2},
		"contentChanges": []any{}})
	if err := c.call("no/such/method", map[string]any{}, nil); err == nil || !strings.Contains(err.Error(), "-32601") {
		t.Errorf("unknown method: %v", err)
	}
	if err := c.call("textDocument/hover", map[string]any{"textDocument": 7}, nil); err == nil {
		t.Error("hover with bad params succeeded")
	}
	var hover json.RawMessage
	if err := c.call("textDocument/hover", pos(filepath.Join(root, "account.c"), 0, 0), &hover); err != nil {
		t.Fatalf("the server stopped answering: %v", err)
	}
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// Shutting down in the middle of an analysis is prompt, leaves no
// temporary file behind, and exit ends the process with status 0; exit
// without shutdown ends it with status 1.
func TestShutdownDuringAnalysis(t *testing.T) {
	root := workspaceWith(t, "slow.c")
	path := filepath.Join(root, "slow.c")
	c := start(t, root, map[string]any{"maxInstructions": 0, "timeout": "0"})
	c.open(path)
	c.waitFor("the analysis to be detecting", func() bool {
		for _, v := range c.progress {
			if m, _ := v["message"].(string); strings.HasPrefix(m, "detecting") {
				return true
			}
		}
		return false
	})
	began := time.Now()
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit status %d after shutdown and exit, want 0", code)
	}
	t.Logf("shutdown and exit took %v in the middle of an analysis", time.Since(began))
	left, _ := os.ReadDir(c.tmp)
	for _, e := range left {
		t.Errorf("left behind in TMPDIR: %s", e.Name())
	}

	c2 := start(t, root, nil)
	c2.notify("exit", nil)
	if code := c2.wait(); code != 1 {
		t.Errorf("exit without shutdown: status %d, want 1", code)
	}
}

// Requests before initialize and after shutdown get the errors the
// specification names.
func TestLifecycleErrors(t *testing.T) {
	root := workspaceWith(t, "account.c")
	c := start(t, root, nil)
	if err := c.call("initialize", map[string]any{"capabilities": map[string]any{}}, nil); err == nil {
		t.Error("a second initialize succeeded")
	}
	if err := c.call("shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.call("textDocument/hover", pos(filepath.Join(root, "account.c"), 0, 0), nil); err == nil ||
		!strings.Contains(err.Error(), "-32600") {
		t.Errorf("hover after shutdown: %v", err)
	}
	c.notify("exit", nil)
	if code := c.wait(); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// The in-process server leaves no goroutine behind once it has exited,
// even when it exits in the middle of an analysis.
func TestNoGoroutineLeak(t *testing.T) {
	root := workspaceWith(t, "account.c", "slow.c")
	baseline := runtime.NumGoroutine()
	c := startInProcess(t, root, map[string]any{"maxInstructions": 0, "timeout": "0"})
	c.open(filepath.Join(root, "account.c"))
	c.waitAnalyses(1)
	c.open(filepath.Join(root, "slow.c"))
	c.waitFor("slow.c's analysis to start", func() bool {
		begun := 0
		for _, v := range c.progress {
			if v["kind"] == "begin" {
				begun++
			}
		}
		return begun >= 2
	})
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit status %d", code)
	}
	c.stdin.Close()
	deadline := time.Now().Add(30 * time.Second)
	for runtime.NumGoroutine() > baseline+1 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > baseline+1 {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines after exit, %d before start:\n%s", n, baseline, buf[:runtime.Stack(buf, true)])
	}
}

// A header opened on its own gets the no-target note; once a program that
// includes it is analyzed, the note goes.
func TestHeaderAloneThenIncluded(t *testing.T) {
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	header, prog := filepath.Join(root, "counter.h"), filepath.Join(root, "main.c")
	files := map[string]string{
		header: "static int hits;\nstatic void bump(void) { hits++; }\n",
		prog: "#include <pthread.h>\n#include \"counter.h\"\nstatic void *w(void *a) { bump(); return a; }\n" +
			"int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); bump(); pthread_join(t, 0); return hits; }\n",
	}
	for p, text := range files {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := start(t, root, nil)
	c.open(header)
	c.waitFor("the header's no-target note", func() bool { return diagWithCode(c.diags[fileURI(header)], "no-target") != nil })
	if d := diagWithCode(c.diagnostics(header), "no-target"); !strings.Contains(d.Message, "header") {
		t.Errorf("header note: %s", d.Message)
	}
	c.open(prog)
	c.waitAnalyses(1)
	c.waitFor("the header's race and no note", func() bool {
		ds := c.diags[fileURI(header)]
		return diagWithCode(ds, "no-target") == nil && len(ds) > 0
	})
	c.shutdown()
}

// A source augur.toml lists that does not exist is reported on the line of
// augur.toml that lists it, not on line 1 of some other file.
func TestMissingSourceOnItsConfigLine(t *testing.T) {
	root := workspaceWith(t, "account.c")
	config := filepath.Join(root, "augur.toml")
	text := "# a program with a source not written yet\n\n[[target]]\nname = \"bank\"\nsources = [\"account.c\", \"missing.c\"]\n"
	if err := os.WriteFile(config, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c := start(t, root, nil)
	c.open(config)
	c.open(filepath.Join(root, "account.c"))
	c.waitFor("the missing source's diagnostic", func() bool { return diagWithCode(c.diags[fileURI(config)], "analysis-failed") != nil })
	d := diagWithCode(c.diagnostics(config), "analysis-failed")
	if d.Range.Start.Line != 4 || !strings.Contains(d.Message, "missing.c does not exist") {
		t.Errorf("missing source diagnostic at line %d: %s", d.Range.Start.Line, d.Message)
	}
	for _, x := range c.diagnostics(filepath.Join(root, "account.c")) {
		if x.Code == "analysis-failed" {
			t.Errorf("the missing source is reported in account.c: %s", x.Message)
		}
	}
	c.shutdown()
}

// While augur.toml is broken, the races of the last analysis stay, marked
// as from that analysis; fixing the file takes the mark away.
func TestStaleRacesMarkedWhileConfigBroken(t *testing.T) {
	c, path := analyzed(t, "account.c")
	root := filepath.Dir(path)
	cfg := filepath.Join(root, "augur.toml")
	stale := func() bool {
		ds := raceDiags(c.diags[fileURI(path)])
		for _, d := range ds {
			if !strings.Contains(d.Message, "From the last analysis") {
				return false
			}
		}
		return len(ds) > 0
	}
	os.WriteFile(cfg, []byte("[[target]]\nsources = [\"account.c\"]\nmp = \"many\"\n"), 0o644)
	c.open(cfg)
	c.waitFor("the races marked stale", stale)
	c.save(cfg, "[[target]]\nsources = [\"account.c\"]\n")
	c.waitFor("the stale mark to go", func() bool {
		ds := raceDiags(c.diags[fileURI(path)])
		return len(ds) > 0 && !strings.Contains(ds[0].Message, "From the last analysis")
	})
	c.shutdown()
}

// A workspace whose augur.toml is a link to /dev/zero, then to a FIFO (a
// cloned repository can hold either), gets a config diagnostic that says
// what the file is, and the server goes on answering: it never reads
// either.
func TestSpecialConfigFileIsADiagnostic(t *testing.T) {
	root := workspaceWith(t, "account.c")
	cfg := filepath.Join(root, "augur.toml")
	os.Symlink("/dev/zero", cfg)
	c := start(t, root, nil)
	c.open(filepath.Join(root, "account.c"))
	c.waitFor("the augur.toml diagnostic", func() bool { return diagWithCode(c.diags[fileURI(cfg)], "config") != nil })
	if d := diagWithCode(c.diagnostics(cfg), "config"); !strings.Contains(d.Message, "a link to /dev/zero, a character device") {
		t.Errorf("augur.toml diagnostic: %+v", d)
	}
	fifo := filepath.Join(root, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(cfg)
	os.Symlink(fifo, cfg)
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": fileURI(cfg), "type": 2}}})
	c.waitFor("the FIFO diagnostic", func() bool {
		d := diagWithCode(c.diags[fileURI(cfg)], "config")
		return d != nil && strings.Contains(d.Message, "a FIFO")
	})
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit status %d after shutdown and exit, want 0", code)
	}
}
