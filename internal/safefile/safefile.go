// Package safefile reads the files a workspace, a command line or an
// evidence file names, which augur does not control: a cloned repository
// can make its augur.toml, a source or an input file a symbolic link to
// /dev/zero or a FIFO, and a plain read of either never ends. Read and
// Check accept only a regular file (after links are resolved), under a
// size cap, and inside a given directory when asked to; anything else is
// an error that names the file and says what it is.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Caps on what augur reads, by what the file is for.
const (
	// MaxConfig bounds configuration: augur.toml, compile_commands.json,
	// evidence and history files.
	MaxConfig = 64 << 20
	// MaxSource bounds a source file or header.
	MaxSource = 32 << 20
	// MaxInput bounds a file given to the program (stdin-file, files).
	MaxInput = 256 << 20
)

// Rules say what a file must be.
type Rules struct {
	// Max is the most bytes the file may hold.
	Max int64
	// Within, when set, is the directory the file must lie in once
	// symbolic links are resolved (the workspace).
	Within string
}

// ErrNotRegular is wrapped by the errors about special files.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped by the errors about files over the cap.
var ErrTooLarge = errors.New("file too large")

// Check verifies path against the rules without reading it, and returns
// its size.
func Check(path string, r Rules) (int64, error) {
	_, size, err := check(path, r)
	return size, err
}

// check is Check, with the path links resolve to.
func check(path string, r Rules) (real string, size int64, err error) {
	real, err = filepath.EvalSymlinks(path)
	if err != nil {
		return "", 0, err
	}
	if r.Within != "" {
		dir, err := filepath.EvalSymlinks(r.Within)
		if err != nil {
			dir = r.Within
		}
		if !Inside(dir, real) {
			return "", 0, fmt.Errorf("%s: resolves to %s, outside %s", path, real, dir)
		}
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", 0, err
	}
	if err := regular(path, real, fi, r.Max); err != nil {
		return "", 0, err
	}
	return real, fi.Size(), nil
}

// Read checks path against the rules and reads it. The file is opened
// without blocking (a FIFO put in its place after the check cannot hold
// the read), checked again once open, and read up to the cap only.
func Read(path string, r Rules) ([]byte, error) {
	real, _, err := check(path, r)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(real, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := regular(path, real, fi, r.Max); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, r.Max+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > r.Max {
		return nil, fmt.Errorf("%s: grew past %s while read: %w", path, size(r.Max), ErrTooLarge)
	}
	return data, nil
}

// regular checks what fi says of path (resolved to real).
func regular(path, real string, fi fs.FileInfo, max int64) error {
	if !fi.Mode().IsRegular() {
		what := kind(fi.Mode())
		if real != path {
			return fmt.Errorf("%s: a link to %s, %s: %w", path, real, what, ErrNotRegular)
		}
		return fmt.Errorf("%s: %s: %w", path, what, ErrNotRegular)
	}
	if max > 0 && fi.Size() > max {
		return fmt.Errorf("%s: %s, more than the %s augur reads: %w", path, size(fi.Size()), size(max), ErrTooLarge)
	}
	return nil
}

// kind says what a file that is not regular is.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// size prints a byte count in MiB or bytes.
func size(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Inside reports whether path lies in dir, both already resolved and
// absolute.
func Inside(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
