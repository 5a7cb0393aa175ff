package analyzer

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"augur/analyzer/build"
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
// Words are quoted as a shell quotes them (splitWords): "a b" and 'a b'
// are one word, a backslash escapes the next character. Relative files
// are relative to dir; argv[0] is the first file's base name without its
// extension.
func ParseClient(line, dir string) (Client, error) {
	words, err := splitWords(line)
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

// splitWords splits a line into words as a POSIX shell does, without
// expansions: blanks separate words; inside single quotes every character
// is itself; inside double quotes a backslash escapes only $, `, " and
// itself; elsewhere a backslash escapes the next character. An unclosed
// quote or a backslash at the end is an error.
func splitWords(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n':
			if inWord {
				words, inWord = append(words, w.String()), false
				w.Reset()
			}
			continue
		case ch == '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, errors.New("unclosed single quote")
			}
			w.WriteString(line[i+1 : i+1+end])
			i += end + 1
		case ch == '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) && strings.IndexByte("$`\"\\", line[i+1]) >= 0 {
					i++
				}
				w.WriteByte(line[i])
			}
			if i == len(line) {
				return nil, errors.New("unclosed double quote")
			}
		case ch == '\\':
			if i+1 == len(line) {
				return nil, errors.New("backslash at the end")
			}
			i++
			w.WriteByte(line[i])
		default:
			w.WriteByte(ch)
		}
		inWord = true
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}
