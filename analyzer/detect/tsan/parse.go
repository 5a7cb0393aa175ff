// Package tsan reads ThreadSanitizer's reports, so augur can classify the
// races a team's CI already finds: each "WARNING: ThreadSanitizer: data
// race" block becomes a Warning with its two accesses' stacks, which
// Match finds in the program augur analyzes.
package tsan

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// Warning is one data race block of a ThreadSanitizer report.
type Warning struct {
	// Index is the block's 1-based place among the data race warnings of
	// all the reports read, in order: what the JSON report's "tsan" says.
	Index int
	// Source is the report the block came from, Line the line it starts
	// at there.
	Source string
	Line   int
	// Accesses are the access that revealed the race and the previous
	// one; the second is missing from a truncated block.
	Accesses []Access
	// Location is what TSan says of the memory ("global 'hits' of size
	// 4", "heap block of size 16"), when it says.
	Location string
	// Truncated is set when the block ended before both stacks.
	Truncated bool
}

// Access is one of a race's two accesses.
type Access struct {
	Write  bool
	Atomic bool
	Size   int
	Thread string // "T1", "main thread"
	Frames []Frame
}

// Frame is one stack frame: innermost first, inlined frames as TSan lists
// them (each its own frame).
type Frame struct {
	Func string
	File string
	Line int
	Col  int
	// Module is the binary or library the frame's code is in, when TSan
	// names it ("libc.so.6", "prog").
	Module string
}

var (
	warningRE  = regexp.MustCompile(`WARNING: ThreadSanitizer: data race`)
	accessRE   = regexp.MustCompile(`^\s*(Previous )?(?i:(atomic )?(read|write)) of size (\d+) at \S+ by (main thread|thread (T\d+))`)
	locationRE = regexp.MustCompile(`^\s*Location is (.*?)( at 0x[0-9a-f]+.*)?$`)
	endRE      = regexp.MustCompile(`^(={10,}|SUMMARY: ThreadSanitizer)`)
)

// Parse reads the data race warnings of one ThreadSanitizer report (its
// other warnings and any text around them are skipped), numbering them
// from first. It is an error for a report to hold no data race warning
// at all: the file given is not what the user meant.
func Parse(r io.Reader, source string, first int) ([]Warning, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	var out []Warning
	var cur *Warning
	var acc *Access
	finish := func() {
		if cur == nil {
			return
		}
		if len(cur.Accesses) < 2 || len(cur.Accesses[0].Frames) == 0 || len(cur.Accesses[1].Frames) == 0 {
			cur.Truncated = true
		}
		out = append(out, *cur)
		cur, acc = nil, nil
	}
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if warningRE.MatchString(text) {
			finish()
			cur = &Warning{Index: first + len(out), Source: source, Line: line}
			continue
		}
		if cur == nil {
			continue
		}
		if endRE.MatchString(strings.TrimSpace(text)) {
			finish()
			continue
		}
		if m := accessRE.FindStringSubmatch(text); m != nil {
			size, _ := strconv.Atoi(m[4])
			th := m[5]
			if m[6] != "" {
				th = m[6]
			}
			cur.Accesses = append(cur.Accesses, Access{Write: strings.EqualFold(m[3], "write"), Atomic: m[2] != "", Size: size, Thread: th})
			acc = &cur.Accesses[len(cur.Accesses)-1]
			continue
		}
		if m := locationRE.FindStringSubmatch(text); m != nil {
			cur.Location, acc = m[1], nil
			continue
		}
		trimmed := strings.TrimSpace(text)
		if acc != nil && strings.HasPrefix(trimmed, "#") {
			if f, ok := parseFrame(text); ok {
				acc.Frames = append(acc.Frames, f)
			}
			continue
		}
		if trimmed != "" && !strings.HasPrefix(trimmed, "#") {
			acc = nil // another section: mutexes, thread creation
		}
	}
	finish()
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("read %s: %w", source, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no \"WARNING: ThreadSanitizer: data race\" in it: not a ThreadSanitizer report", source)
	}
	return out, nil
}

// moduleRE finds a frame's module: " (prog+0x1234)", perhaps followed by
// " (BuildId: ...)".
var moduleRE = regexp.MustCompile(` \(([^()]*)\+0x[0-9a-f]+\)`)

// parseFrame reads "#N function file:line:col (module+0x...)"; the file,
// line and column may be missing ("<null>"), the function may have spaces
// (a demangled C++ name).
func parseFrame(text string) (Frame, bool) {
	s := strings.TrimSpace(text)
	var f Frame
	if loc := moduleRE.FindStringSubmatchIndex(s); loc != nil {
		f.Module = s[loc[2]:loc[3]]
		s = s[:loc[0]]
	}
	fields := strings.Fields(s)
	if len(fields) < 3 || !strings.HasPrefix(fields[0], "#") {
		return Frame{}, false
	}
	where := fields[len(fields)-1]
	f.Func = strings.Join(fields[1:len(fields)-1], " ")
	if where == "<null>" {
		return f, true
	}
	// file:line:col, file:line or file; a file name may hold colons.
	parts := strings.Split(where, ":")
	nums := 0
	for nums < 2 && len(parts)-1-nums > 0 {
		if _, err := strconv.Atoi(parts[len(parts)-1-nums]); err != nil {
			break
		}
		nums++
	}
	f.File = strings.Join(parts[:len(parts)-nums], ":")
	if nums >= 1 {
		f.Line, _ = strconv.Atoi(parts[len(parts)-nums])
	}
	if nums == 2 {
		f.Col, _ = strconv.Atoi(parts[len(parts)-1])
	}
	return f, true
}
