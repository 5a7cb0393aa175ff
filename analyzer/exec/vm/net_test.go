package vm_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/load/loadtest"
)

// What a program holds in the network is bounded as a kernel bounds it:
// datagrams nobody receives are dropped past the receive buffer, and
// connections nobody accepts are refused past the backlog, so a flood
// fails the program's sends, not the analysis's memory.
func TestNetworkQueuesAreBounded(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "flood.c")
	os.WriteFile(src, []byte(`#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>
int main(void) {
	int r = socket(AF_INET, SOCK_DGRAM, 0), s = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	bind(r, (struct sockaddr *)&a, sizeof a);
	socklen_t l = sizeof a;
	getsockname(r, (struct sockaddr *)&a, &l);
	static char payload[1024];
	for (int i = 0; i < 5000; i++)
		sendto(s, payload, sizeof payload, 0, (struct sockaddr *)&a, sizeof a);
	int got = 0;
	char buf[2048];
	while (recv(r, buf, sizeof buf, MSG_DONTWAIT) > 0)
		got++;
	int lst = socket(AF_INET, SOCK_STREAM, 0);
	bind(lst, (struct sockaddr *)&a, sizeof a);
	listen(lst, 16);
	l = sizeof a;
	getsockname(lst, (struct sockaddr *)&a, &l);
	int refused = 0;
	for (int i = 0; i < 5000; i++) {
		int c = socket(AF_INET, SOCK_STREAM, 0);
		if (connect(c, (struct sockaddr *)&a, sizeof a) != 0)
			refused++;
	}
	printf("received %d of 5000 datagrams; %d connections refused\n", got, refused);
	return 0;
}
`), 0o644)
	prog := loadtest.Program(t, dir, src)
	m, err := vm.New(prog, vm.Config{Models: libc.Models(), Args: []string{"flood"}, MaxInstructions: 200_000_000, Limits: vm.Limits{MaxMemory: 256 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	res := m.Run()
	if res.Term.Kind != vm.TermExit {
		t.Fatalf("%s", res.Term.Report())
	}
	out := ""
	for _, ev := range res.Output {
		out += string(ev.Data)
	}
	if want := "received 208 of 5000 datagrams; 904 connections refused"; !strings.Contains(out, want) {
		t.Errorf("output %q, want %q", out, want)
	}
}
