package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A server and two copies of one client program run together under
// `augur run --client`: each client, linked apart from the other and from
// the server (all three define main), talks to the server over the
// virtual loopback, and the run ends when both clients have exited,
// though the server never does.
func TestClientProgramsRunBesideTheServer(t *testing.T) {
	server, client := clientTestdata(t)
	out, errOut, code := augur(t, "", "run", server, "--client", client+" one", "--client", client+" two")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"server: listening\n", "echo_client one: echo 0: one\n", "echo_client two: echo 0: two\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, ": echo "); n != 4 {
		t.Errorf("%d answers printed, want 4 (two connections per client):\n%s", n, out)
	}
	if _, errOut, code := augur(t, "", "run", server, "--client", "one "+client); code != 2 || !strings.Contains(errOut, "give its sources first") {
		t.Errorf("a client line without sources first: exit %d, %s", code, errOut)
	}
}

// runEOFServer runs eof_server.c with two copies of eof_client.c: the
// first in mode first ("leave" or "threads"), the second sleeping later
// seconds before it exits and ends the run.
func runEOFServer(t *testing.T, first string, later int) (out, errOut string, code int) {
	server, _ := clientTestdata(t)
	dir := filepath.Dir(server)
	client := filepath.Join(dir, "eof_client.c")
	return augur(t, "", "run", filepath.Join(dir, "eof_server.c"),
		"--client", client+" "+first, "--client", fmt.Sprintf("%s later %d", client, later))
}

// A client that exits with its socket open has it closed by the end of
// its process, so the server reads to the connection's end while the
// other client still runs (eof_server.c's expectation).
func TestClientExitClosesItsDescriptors(t *testing.T) {
	out, errOut, code := runEOFServer(t, "leave", 1)
	if code != 0 || !strings.Contains(out, "server: closed after 5 bytes\n") {
		t.Fatalf("exit %d, want 0 with the server seeing the first client's end:\n%s%s", code, out, errOut)
	}
}

// A client's exit ends every thread of its process where it waits: one
// asleep, one reading a connection the exit closes, one on a condition.
// None of them runs again, while the server and the other client go on
// (eof_client.c threads); without it the sleeper wakes at its deadline
// and the reader at its socket's close, and both print.
func TestClientExitEndsItsThreads(t *testing.T) {
	out, errOut, code := runEOFServer(t, "threads", 10)
	if code != 0 || !strings.Contains(out, "server: closed after 5 bytes\n") || !strings.Contains(out, "client: done\n") {
		t.Fatalf("exit %d, want 0 with the server seeing the first client's end and the second finishing:\n%s%s", code, out, errOut)
	}
	if strings.Contains(out, "woke") {
		t.Errorf("a thread of the exited client ran again:\n%s", out)
	}
}

// The races a server's clients expose are classified with the clients
// running, and their evidence names the clients, so that `augur replay`
// runs them again.
func TestClientProgramEvidenceReplays(t *testing.T) {
	server, client := clientTestdata(t)
	dir := t.TempDir()
	r := runAugurIn(t, dir, "", "analyze", "--explore-time", "0", "--format", "json", "--evidence-dir", "ev",
		server, "--client", client+" one")
	if r.code != 0 && r.code != 3 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var rep struct {
		Races []struct {
			Category string `json:"category"`
			Object   string `json:"object"`
		} `json:"races"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if len(rep.Races) == 0 {
		t.Fatalf("no race found with the client running:\n%s", r.stdout)
	}
	for _, race := range rep.Races {
		if race.Object != "served" || race.Category != "output-differs" {
			t.Errorf("race on %s is %s, want served, output-differs (echo_server.c's expectation)", race.Object, race.Category)
		}
	}
	evs, _ := filepath.Glob(filepath.Join(dir, "ev", "*.json"))
	if len(evs) == 0 {
		t.Fatalf("no evidence written:\n%s", r.stdout)
	}
	for _, ev := range evs {
		data, err := os.ReadFile(ev)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Program struct {
				Clients [][]string `json:"clients"`
			} `json:"program"`
			Inputs struct {
				Clients [][]string `json:"clients"`
			} `json:"inputs"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Program.Clients) != 1 || len(doc.Inputs.Clients) != 1 || strings.Join(doc.Inputs.Clients[0], " ") != "echo_client one" {
			t.Errorf("%s names the clients %v with argv %v, want echo_client.c with [echo_client one]",
				filepath.Base(ev), doc.Program.Clients, doc.Inputs.Clients)
		}
		if out, errOut, code := augur(t, "", "replay", ev); code != 0 {
			t.Errorf("replay %s: exit %d\n%s%s", filepath.Base(ev), code, out, errOut)
		}
	}
}

// clientTestdata returns the absolute paths of testdata/clients' server
// and client.
func clientTestdata(t *testing.T) (server, client string) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "clients"))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "echo_server.c"), filepath.Join(dir, "echo_client.c")
}
