package sysmem

import (
	"os"
	"path/filepath"
	"testing"
)

func TestMeminfoReadsTheNamedLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "meminfo")
	os.WriteFile(p, []byte("MemTotal:       24000000 kB\nMemFree:         1000 kB\nMemAvailable:   20000000 kB\n"), 0o644)
	if got := meminfo(p, "MemAvailable"); got != 20000000<<10 {
		t.Errorf("MemAvailable = %d", got)
	}
	if got := meminfo(p, "SwapTotal"); got != 0 {
		t.Errorf("a missing line = %d, want 0", got)
	}
}

func TestCgroupValue(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "limited"), []byte("1073741824\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "unlimited"), []byte("max\n"), 0o644)
	if n, ok := cgroupValue(filepath.Join(dir, "limited")); !ok || n != 1<<30 {
		t.Errorf("limited: %d %v", n, ok)
	}
	if _, ok := cgroupValue(filepath.Join(dir, "unlimited")); ok {
		t.Errorf("max read as a number")
	}
}

// The default budget on this machine is within its bounds and no more
// than what is available (unless that is below the floor).
func TestDefaultBudgetIsBounded(t *testing.T) {
	b, avail := DefaultBudget(), Available()
	if b < Floor || b > Ceiling {
		t.Errorf("default budget %d outside [%d, %d]", b, Floor, Ceiling)
	}
	if avail > Floor && b > avail {
		t.Errorf("default budget %d above the %d available", b, avail)
	}
}
