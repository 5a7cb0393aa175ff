package build

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Diagnostic is one message from the compiler, positioned in a source file.
type Diagnostic struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Severity string `json:"severity"` // "error", "warning" or "note"
	Message  string `json:"message"`
}

func (d Diagnostic) String() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s", d.File, d.Line, d.Column, d.Severity, d.Message)
}

// CompileError is returned when a translation unit does not compile. It keeps
// every diagnostic so the language server can show each at its position.
type CompileError struct {
	File        string
	Diagnostics []Diagnostic
	Output      string // the compiler's output as printed
	// Limit is set when augur stopped the compiler (time or memory limit)
	// rather than the compiler failing on the source.
	Limit bool
}

func (e *CompileError) Error() string {
	var errs []string
	for _, d := range e.Diagnostics {
		if d.Severity == "error" {
			errs = append(errs, d.String())
		}
	}
	if len(errs) == 0 {
		return fmt.Sprintf("compile %s: %s", e.File, strings.TrimSpace(e.Output))
	}
	return fmt.Sprintf("compile %s: %s", e.File, strings.Join(errs, "; "))
}

var diagLine = regexp.MustCompile(`^(.+?):(\d+):(\d+): (fatal error|error|warning|note): (.*)$`)

// parseDiagnostics extracts positioned diagnostics from clang's output, which
// must be produced with -fno-color-diagnostics.
func parseDiagnostics(out string) []Diagnostic {
	var ds []Diagnostic
	for _, line := range strings.Split(out, "\n") {
		m := diagLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		ln, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		sev := m[4]
		if sev == "fatal error" {
			sev = "error"
		}
		ds = append(ds, Diagnostic{File: m[1], Line: ln, Column: col, Severity: sev, Message: m[5]})
	}
	return ds
}

// Split walks an error of Build (errors.Join of one error per file) and
// calls compiled for each compile error and other for anything else, in
// order: what the command line prints, the report and the editor's
// diagnostics all come from the same walk.
func Split(err error, compiled func(*CompileError), other func(error)) {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range joined.Unwrap() {
			Split(e, compiled, other)
		}
		return
	}
	var ce *CompileError
	if errors.As(err, &ce) {
		compiled(ce)
		return
	}
	other(err)
}
