package build

import (
	"fmt"

	"mvdan.cc/sh/v3/shell"
)

// SplitCommand splits a command line into its words as a POSIX shell
// does: blanks separate words, quotes and backslashes as the shell reads
// them, and the expansions a shell makes of a command's arguments without
// running anything (parameters from the process's environment, tilde and
// braces; no command substitution, no globbing). A line a shell would
// refuse (an unclosed quote, an operator such as | or ;) is an error.
// Every place that reads a command line (a compilation database's
// "command", a client program's line) splits it here.
func SplitCommand(line string) ([]string, error) {
	words, err := shell.Fields(line, nil)
	if err != nil {
		return nil, fmt.Errorf("split %q as a shell would: %w", line, err)
	}
	return words, nil
}
