package load

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"augur/analyzer/frontend/build"
)

// A Client is a client program to run beside the program (a client of a
// server, as a test harness runs it): the files it is built from and its
// argv. The build takes the files (build.Options.Clients), the run its
// argv (vm.Config.Clients).
type Client struct {
	Files []string
	Argv  []string
}

// ParseClient reads a client program as the command line (--client) and
// augur.toml (clients) give it: its C/C++ sources or bitcode files, then
// its arguments, words separated by blanks, as in "client.c -p 11311".
// Words are quoted as a shell quotes them (build.SplitCommand): "a b" and 'a b'
// are one word, a backslash escapes the next character. Relative files
// are relative to dir; argv[0] is the first file's base name without its
// extension.
func ParseClient(line, dir string) (Client, error) {
	words, err := build.SplitCommand(line)
	if err != nil {
		return Client{}, fmt.Errorf("client program %q: %w", line, err)
	}
	var c Client
	for len(words) > 0 && (build.IsSource(words[0]) || build.IsBitcode(words[0])) {
		f := words[0]
		if !filepath.IsAbs(f) && dir != "" {
			f = filepath.Join(dir, f)
		}
		c.Files, words = append(c.Files, f), words[1:]
	}
	if len(c.Files) == 0 {
		return Client{}, fmt.Errorf("client program %q: give its sources first (client.c ... then its arguments)", line)
	}
	name := filepath.Base(c.Files[0])
	c.Argv = append([]string{strings.TrimSuffix(name, filepath.Ext(name))}, words...)
	return c, nil
}

// ParseClients is ParseClient for each line.
func ParseClients(lines []string, dir string) ([]Client, error) {
	var out []Client
	var errs []error
	for _, l := range lines {
		c, err := ParseClient(l, dir)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, c)
	}
	return out, errors.Join(errs...)
}

// SplitClients returns what the build takes of clients (their files) and
// what the run takes (their argv).
func SplitClients(clients []Client) (files, argv [][]string) {
	for _, c := range clients {
		files, argv = append(files, c.Files), append(argv, c.Argv)
	}
	return files, argv
}
