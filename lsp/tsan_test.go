package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A ThreadSanitizer report of counter.c's race in the workspace, named by
// the tsanReport setting (here augur.toml's tsan-report, a glob): the
// race's hover says ThreadSanitizer reported it, with the warning's place
// in the report.
func TestTSanReportSettingInHover(t *testing.T) {
	root := workspaceWith(t, "race/counter.c")
	path := filepath.Join(root, "counter.c")
	os.MkdirAll(filepath.Join(root, "ci"), 0o755)
	report := `build output
==================
WARNING: ThreadSanitizer: data race (pid=777)
  Write of size 4 at 0x55c4c0 by thread T2:
    #0 worker /ci/build/counter.c:11:7 (counter+0xd019f)

  Previous write of size 4 at 0x55c4c0 by thread T1:
    #0 worker /ci/build/counter.c:11:7 (counter+0xd019f)

SUMMARY: ThreadSanitizer: data race /ci/build/counter.c:11:7 in worker
==================
`
	os.WriteFile(filepath.Join(root, "ci", "tsan-1.log"), []byte(report), 0o644)
	os.WriteFile(filepath.Join(root, "augur.toml"), []byte("tsan-report = [\"ci/tsan-*.log\"]\n"), 0o644)
	c := start(t, root, nil)
	c.open(path)
	c.waitAnalyses(1)
	h := c.hover(path, lineOf(t, path, "hits++"), 3)
	if want := "- **ThreadSanitizer** reported this race too: warning 1 (ci/tsan-1.log, line 3)"; !strings.Contains(h, want) {
		t.Errorf("hover lacks %q:\n%s", want, h)
	}
}
