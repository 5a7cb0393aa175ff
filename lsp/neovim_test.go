package lsp_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// A real third-party editor as the client: Neovim's built-in LSP client,
// headless, opens a program, receives augur's diagnostics, saves a
// comment-only change and receives them moved.
func TestNeovimClient(t *testing.T) {
	root := workspaceWith(t, "account.c")
	// Two of account.c's races are found only by the exploration after the
	// plan, which the editor bounds by 100 ms: on a loaded machine it may
	// stop before them. Bounded by instructions, it ends at the same
	// schedule on any machine.
	if err := os.WriteFile(filepath.Join(root, "augur.toml"), []byte("explore-time = \"auto\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	data, output := nvimScript(t, root, "nvim_client.lua", "AUGUR_FILE="+filepath.Join(root, "account.c"))
	var res struct {
		Error          *string `json:"error"`
		ServersStopped bool    `json:"servers_stopped"`
		Phases         []struct {
			Name        string `json:"name"`
			Diagnostics []struct {
				Lnum     int    `json:"lnum"`
				Col      int    `json:"col"`
				Severity int    `json:"severity"`
				Code     string `json:"code"`
				Source   string `json:"source"`
				Message  string `json:"message"`
			} `json:"diagnostics"`
		} `json:"phases"`
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	if res.Error != nil {
		t.Fatalf("the Neovim script failed: %s\n%s", *res.Error, output)
	}
	serversStopped(t, res.ServersStopped, output)
	if len(res.Phases) != 2 {
		t.Fatalf("phases: %+v", res.Phases)
	}
	program := filepath.Join("..", "testdata", "lsp", "account.c")
	want := expectations(t, program)
	free := lineOf(t, program, "free(receipt);")
	for i, phase := range res.Phases {
		codes := map[int]map[string]bool{}
		for _, d := range phase.Diagnostics {
			if d.Source != "augur" || d.Code == "memory-error" && d.Lnum-i == free {
				continue // the double free the receipt race causes, which exploration also finds as a failure
			}
			line := d.Lnum - i // the save added one line at the top
			if codes[line] == nil {
				codes[line] = map[string]bool{}
			}
			codes[line][d.Code] = true
		}
		got := map[int][]string{}
		for line, set := range codes {
			for code := range set {
				got[line] = append(got[line], code)
			}
			sort.Strings(got[line])
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Neovim shows the categories %v by line, want %v", phase.Name, got, want)
		}
	}
}

// The Neovim set-up docs/neovim.lua gives users (the README points at it)
// works in the Neovim `make setup` installs: opening a C file starts augur
// and its diagnostics arrive.
func TestNeovimSetupFromDocs(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Fatal("nvim is not installed: `make setup` installs Debian's neovim for this test")
	}
	root := workspaceWith(t, "account.c")
	out := filepath.Join(t.TempDir(), "result.json")
	setup, _ := filepath.Abs("../docs/neovim.lua")
	wait, _ := filepath.Abs("../testdata/lsp/nvim_wait.lua")
	cmd := exec.Command(nvim, "--headless", "-i", "NONE", "-u", setup, "-c", "filetype on", "-c", "edit account.c",
		"-c", "luafile "+wait)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(augurBin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"AUGUR_OUT="+out, "AUGUR_CACHE_DIR="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir())
	output := runNvim(t, cmd, 3*time.Minute)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("nvim wrote no result: %v\n%s", err, output)
	}
	var res struct {
		Settled        bool     `json:"settled"`
		Count          int      `json:"count"`
		Clients        int      `json:"clients"`
		Lenses         []string `json:"lenses"`
		ServersStopped bool     `json:"servers_stopped"`
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	serversStopped(t, res.ServersStopped, output)
	if !res.Settled || res.Count == 0 || res.Clients != 1 {
		t.Fatalf("with docs/neovim.lua: %+v\n%s", res, output)
	}
	if !slices.ContainsFunc(res.Lenses, func(s string) bool { return strings.HasPrefix(s, "Replay evidence") }) {
		t.Errorf("docs/neovim.lua shows no Replay evidence code lens: %q", res.Lenses)
	}
}

// nvimScript runs a Lua script of testdata/lsp in a headless Neovim
// without user configuration, in the workspace root, with AUGUR_BIN,
// AUGUR_ROOT and AUGUR_OUT set (and env), and returns the JSON the script
// wrote to AUGUR_OUT and what Neovim printed.
func nvimScript(t *testing.T, root, script string, env ...string) (result, output []byte) {
	t.Helper()
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Fatal("nvim is not installed: `make setup` installs Debian's neovim for this test")
	}
	out := filepath.Join(t.TempDir(), "result.json")
	path, _ := filepath.Abs(filepath.Join("..", "testdata", "lsp", script))
	cmd := exec.Command(nvim, "--headless", "-u", "NONE", "-i", "NONE", "-c", "luafile "+path)
	cmd.Env = append(append(os.Environ(), "AUGUR_BIN="+augurBin, "AUGUR_ROOT="+root, "AUGUR_OUT="+out,
		"AUGUR_CACHE_DIR="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir()), env...)
	cmd.Dir = root
	output = runNvim(t, cmd, 5*time.Minute)
	result, err = os.ReadFile(out)
	if err != nil {
		t.Fatalf("nvim wrote no result: %v\n%s", err, output)
	}
	return result, output
}

// serversStopped fails the test unless augur ended when Neovim asked it
// to (nvim_result.lua's finish sends shutdown and exit, then waits 20 s
// for the process): a server that outlives its client keeps writing to
// the user's cache after the editor has gone.
func serversStopped(t *testing.T, stopped bool, output []byte) {
	t.Helper()
	if !stopped {
		t.Fatalf("augur lsp was still running 20 s after Neovim asked it to shut down and exit\n%s", output)
	}
}

// runNvim runs a headless Neovim and returns what it printed, failing the
// test when it fails or outlives limit (it is killed then).
func runNvim(t *testing.T, cmd *exec.Cmd, limit time.Duration) []byte {
	t.Helper()
	done := make(chan error, 1)
	var output []byte
	go func() {
		var err error
		output, err = cmd.CombinedOutput()
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("nvim: %v\n%s", err, output)
		}
	case <-time.After(limit):
		cmd.Process.Kill()
		t.Fatalf("nvim did not finish in %v", limit)
	}
	return output
}

// The editor flows of issue 16 in a real third-party client, Neovim 0.7
// headless (testdata/lsp/nvim_editor.lua): a header opened alone gets the
// no-target note, which goes when the program that includes it is
// analyzed; a whole-document change moves the race with its line; Replay
// evidence in a client that cannot show documents arrives as a message
// naming the transcript; and the racing line has code lenses.
func TestNeovimEditorFlows(t *testing.T) {
	root := workspaceWith(t, "counter.h", "counter_main.c")
	data, output := nvimScript(t, root, "nvim_editor.lua")
	type diag struct {
		Lnum    int    `json:"lnum"`
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	var res struct {
		Error          *string `json:"error"`
		ServersStopped bool    `json:"servers_stopped"`
		Phases         []struct {
			Name        string `json:"name"`
			Diagnostics []diag `json:"diagnostics"`
		} `json:"phases"`
		Messages []string `json:"messages"`
		Replay   struct {
			Shown      bool   `json:"shown"`
			Reproduced bool   `json:"reproduced"`
			Transcript string `json:"transcript"`
		} `json:"replay"`
		Lenses []struct {
			Lnum  int    `json:"lnum"`
			Title string `json:"title"`
		} `json:"lenses"`
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	if res.Error != nil {
		t.Fatalf("the Neovim script failed: %s\nphases: %+v\n%s", *res.Error, res.Phases, output)
	}
	serversStopped(t, res.ServersStopped, output)
	raceLine := -1
	for line := range expectations(t, filepath.Join("..", "testdata", "lsp", "counter.h")) {
		raceLine = line
	}
	phase := func(name string) []diag {
		for _, p := range res.Phases {
			if p.Name == name {
				return p.Diagnostics
			}
		}
		t.Fatalf("no phase %q", name)
		return nil
	}
	if h := phase("header"); len(h) != 1 || h[0].Code != "no-target" || !strings.Contains(h[0].Message, "header") {
		t.Errorf("the header opened alone shows %+v, want the no-target note for headers", h)
	}
	for name, line := range map[string]int{"included": raceLine, "changed": raceLine + 1} {
		ds := phase(name)
		if len(ds) != 1 || ds[0].Code != "output-differs" || ds[0].Lnum != line {
			t.Errorf("%s: %+v, want one output-differs race on line %d", name, ds, line+1)
		}
	}
	if res.Replay.Shown || !res.Replay.Reproduced {
		t.Errorf("replay result %+v: want reproduced and not shown (Neovim 0.7 cannot show documents)", res.Replay)
	}
	found := false
	for _, m := range res.Messages {
		if strings.Contains(m, "replay of race") && strings.Contains(m, res.Replay.Transcript) {
			found = true
		}
	}
	if _, err := os.Stat(res.Replay.Transcript); err != nil || !found {
		t.Errorf("no message naming the transcript %s (%v); messages: %q", res.Replay.Transcript, err, res.Messages)
	}
	titles := map[string]bool{}
	for _, l := range res.Lenses {
		if l.Lnum == raceLine+1 {
			titles[strings.SplitN(l.Title, " (", 2)[0]] = true
		}
	}
	for _, want := range []string{"Replay evidence", "Show interleaving", "Show output difference"} {
		if !titles[want] {
			t.Errorf("no %q lens on the racing line; lenses: %+v", want, res.Lenses)
		}
	}
}
