package ir

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The cache of lowered programs keeps the most recently used ones.
func TestPruneKeepsTheRecent(t *testing.T) {
	dir := t.TempDir()
	base := time.Now().Add(-time.Hour)
	for i := range 70 {
		f := filepath.Join(dir, fmt.Sprintf("p%02d.gob", i))
		os.WriteFile(f, nil, 0o644)
		at := base.Add(time.Duration(i) * time.Second)
		os.Chtimes(f, at, at)
	}
	prune(dir, 64)
	entries, _ := os.ReadDir(dir)
	if len(entries) != 64 {
		t.Fatalf("%d left, want 64", len(entries))
	}
	for i := range 6 {
		if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("p%02d.gob", i))); err == nil {
			t.Errorf("p%02d.gob, among the oldest, was kept", i)
		}
	}
}
