package lsp

import "strings"

// hunk says that old lines [oldStart, oldEnd) became new lines
// [newStart, newEnd); an insertion has oldStart == oldEnd, a deletion
// newStart == newEnd.
type hunk struct {
	oldStart, oldEnd int
	newStart, newEnd int
}

// maxDiffCells bounds the table of the line diff (lines of the changed
// middle of the old text times those of the new): past it the middle is
// taken as replaced whole, which moves the lines around it correctly and
// the lines inside it to its start.
const maxDiffCells = 4_000_000

// splitLines splits a text into its lines, without their newlines (a
// final newline ends the last line rather than starting an empty one).
func splitLines(text string) []string {
	lines := strings.Split(text, "\n")
	if len(lines) > 1 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// diffLines returns the hunks that turn old into new, top to bottom: the
// lines both share at their start and end are kept, and in between a
// longest common subsequence of lines decides which lines stayed.
func diffLines(old, new []string) []hunk {
	pre := 0
	for pre < len(old) && pre < len(new) && old[pre] == new[pre] {
		pre++
	}
	suf := 0
	for suf < len(old)-pre && suf < len(new)-pre && old[len(old)-1-suf] == new[len(new)-1-suf] {
		suf++
	}
	a, b := old[pre:len(old)-suf], new[pre:len(new)-suf]
	if len(a) == 0 && len(b) == 0 {
		return nil
	}
	if len(a)*len(b) > maxDiffCells || len(a) == 0 || len(b) == 0 {
		return []hunk{{pre, pre + len(a), pre, pre + len(b)}}
	}
	// lcs[i][j] is the longest common subsequence of a[i:] and b[j:].
	lcs := make([][]int32, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []hunk
	i, j := 0, 0
	open := false
	var h hunk
	flush := func() {
		if open {
			h.oldEnd, h.newEnd = pre+i, pre+j
			out = append(out, h)
			open = false
		}
	}
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			flush()
			i++
			j++
			continue
		case !open:
			h, open = hunk{oldStart: pre + i, newStart: pre + j}, true
		}
		if j >= len(b) || (i < len(a) && lcs[i+1][j] >= lcs[i][j+1]) {
			i++
		} else {
			j++
		}
	}
	flush()
	return out
}
