package race

import (
	"fmt"
	"regexp"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// FailureID names a failure by what it is, so that the report lists each
// once: its kind, where it happened and its message with the figures that
// follow the input left out. The same out-of-bounds read at one line is
// one bug whether an explored argument put it 3 or 4 bytes before the
// buffer, or the buffer was 13 or 2 bytes long. A hang is caught at
// whichever instruction of its loop the watch saw come back, so its line
// names it.
func FailureID(kind vm.TermKind, message string, loc ir.Loc) string {
	if kind == vm.TermHang {
		return fmt.Sprintf("%s|%s:%d", kind, loc.File, loc.Line)
	}
	return fmt.Sprintf("%s|%s|%s", kind, MessageID(message), loc)
}

// MessageID is a failure's message with the figures an input can change
// left out, as FailureID compares messages.
func MessageID(message string) string {
	return inputFigures.ReplaceAllString(message, "${1}${2}N")
}

// inputFigures matches the figures of a memory error's message that an
// input can change (vm.AccessError): the offset, a wild address and the
// object's size (as bytesize.Count writes it).
var inputFigures = regexp.MustCompile(`(at offset |address )(?:0x[0-9a-f]+|-?\d+)|(\()\d+ bytes?\)`)
