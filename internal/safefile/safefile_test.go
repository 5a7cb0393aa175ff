package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Special files are refused by what they are, without being opened for
// a read that would never end; a regular file is read whole, under the
// cap; a link out of the directory given is refused.
func TestReadRefusesWhatCouldNeverEnd(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "a.txt")
	os.WriteFile(regular, []byte("hello"), 0o644)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero")
	os.Symlink("/dev/zero", zero)
	toFifo := filepath.Join(dir, "to-fifo")
	os.Symlink(fifo, toFifo)
	out := filepath.Join(t.TempDir(), "outside.txt")
	os.WriteFile(out, []byte("secret"), 0o644)
	toOut := filepath.Join(dir, "to-outside")
	os.Symlink(out, toOut)

	if data, err := Read(regular, Rules{Max: 5, Within: dir}); err != nil || string(data) != "hello" {
		t.Errorf("regular file: %q, %v", data, err)
	}
	for _, c := range []struct{ path, says string }{
		{fifo, "a FIFO"}, {toFifo, "a FIFO"}, {zero, "a character device"}, {dir, "a directory"},
	} {
		_, err := Read(c.path, Rules{Max: 1 << 20})
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), c.path) {
			t.Errorf("%s: %v, want an error that names it and says %q", c.path, err, c.says)
		}
	}
	if _, err := Read(regular, Rules{Max: 4}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the cap: %v", err)
	}
	if _, err := Read(toOut, Rules{Max: 100, Within: dir}); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("a link out of the directory: %v", err)
	}
	if _, err := Read(toOut, Rules{Max: 100}); err != nil {
		t.Errorf("a link out, with no directory required: %v", err)
	}
	if _, err := Read(filepath.Join(dir, "missing"), Rules{Max: 100}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}
