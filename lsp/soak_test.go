package lsp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestSoak saves five documents in turn, each save a change of code, and
// waits for every analysis to end: the server's resident memory after the
// last save stays within 10% (plus 8 MiB of slack for the allocator's
// rounding) of what it held after the first 50, and every analysis is
// answered. make test runs 120 saves; AUGUR_SOAK_SAVES=1000 (make soak)
// the full soak.
func TestSoak(t *testing.T) {
	saves := 120
	if n, err := strconv.Atoi(os.Getenv("AUGUR_SOAK_SAVES")); err == nil && n > 50 {
		saves = n
	}
	root := workspaceWith(t, "account.c", "retire.c", "race/counter.c", "race/check_then_act.c", "race/stats_server.c")
	docs := []string{"account.c", "retire.c", "counter.c", "check_then_act.c", "stats_server.c"}
	original := map[string]string{}
	for i, d := range docs {
		docs[i] = filepath.Join(root, d)
		data, err := os.ReadFile(docs[i])
		if err != nil {
			t.Fatal(err)
		}
		original[docs[i]] = string(data)
	}
	c := start(t, root, map[string]any{"debounce": "0s"})
	for _, d := range docs {
		c.open(d)
	}
	c.waitAnalyses(len(docs))
	var after50 int
	began := time.Now()
	for i := 1; i <= saves; i++ {
		doc := docs[i%len(docs)]
		c.mu.Lock()
		ends := c.ends()
		c.mu.Unlock()
		c.save(doc, original[doc]+fmt.Sprintf("\nint soak_revision = %d;\n", i))
		c.waitAnalyses(ends + 1)
		if i == 50 {
			time.Sleep(500 * time.Millisecond)
			after50 = rssKiB(c.cmd.Process.Pid)
		}
	}
	time.Sleep(500 * time.Millisecond)
	final := rssKiB(c.cmd.Process.Pid)
	t.Logf("%d saves in %v; RSS after 50: %d KiB, after %d: %d KiB (%+.1f%%)", saves, time.Since(began).Round(time.Second),
		after50, saves, final, 100*float64(final-after50)/float64(after50))
	if float64(final) > 1.1*float64(after50)+8*1024 {
		t.Errorf("RSS grew from %d KiB after 50 saves to %d KiB after %d", after50, final, saves)
	}
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit status %d", code)
	}
}
