package main

import (
	"strings"
	"testing"
)

// --workers and augur worker refuse a malformed URL or a wrong scheme at
// once (exit 2), and give up on a server nobody runs after a few retries
// they announce, with the reason (exit 1), before any analysis.
func TestFarmURLsFailFast(t *testing.T) {
	src := "../../testdata/race/counter.c"
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"analyze", "--workers", "not a url", src}, 2, "want nats://HOST:PORT"},
		{[]string{"analyze", "--workers", "http://127.0.0.1:4222", src}, 2, `not a "http" URL`},
		{[]string{"analyze", "--workers", "nats://:4222", src}, 2, "no host"},
		{[]string{"worker", "http://127.0.0.1:4222"}, 2, `not a "http" URL`},
		{[]string{"analyze", "--workers", "nats://127.0.0.1:1", src}, 1, "connection refused"},
		{[]string{"worker", "nats://127.0.0.1:1"}, 1, "connection refused"},
	} {
		_, stderr, code := augur(t, "", c.args...)
		if code != c.code || !strings.Contains(stderr, c.says) {
			t.Errorf("augur %s: exit %d, want %d with %q; stderr:\n%s", strings.Join(c.args, " "), code, c.code, c.says, stderr)
		}
		if c.code == 1 && strings.Count(stderr, "retrying") != 3 {
			t.Errorf("augur %s: want 3 retries announced; stderr:\n%s", strings.Join(c.args, " "), stderr)
		}
	}
}
