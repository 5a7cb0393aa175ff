package lsp

import (
	"augur/analyzer/exec/vm"
	"augur/analyzer/output/report"
)

// This file places a racing access where the developer can act on it. An
// access inside a library (a std::map's insert in libstdc++'s headers, a
// tree rotation in augur's C++ runtime) is shown at the program's
// innermost call into the library: the line that called std::map's
// operator[] is the line to lock around, or to mark with augur:ignore
// (race.MarkerSites silences it there too).

// shownAccess is access a as the editor shows it: a itself when it is in
// the program's own code; otherwise a at the program's innermost frame,
// with that frame's callers as its stack, and via the library function
// the program called there ("std::map::operator[]"). ok is false when no
// frame of the stack is the program's: a is then shown where it is.
func shownAccess(a report.Access) (shown report.Access, via string, ok bool) {
	if !vm.InLibrary(a.File) {
		return a, "", true
	}
	i := ownFrame(a.Stack)
	if i < 0 {
		return a, "", false
	}
	fr := a.Stack[i]
	shown = a
	shown.File, shown.Line, shown.Column, shown.Function = fr.File, fr.Line, fr.Column, fr.Function
	shown.Stack = a.Stack[i:]
	if i > 0 {
		via = a.Stack[i-1].Function
	}
	return shown, via, true
}

// shownPlace is where the editor shows a place with its call stack
// (innermost first, nil when unknown): itself in the program's own code,
// else the program's innermost frame. ok is false for a place inside a
// library with no frame of the program's to show it at.
func shownPlace(at report.Frame, stack []report.Frame) (report.Frame, bool) {
	if !vm.InLibrary(at.File) {
		return at, true
	}
	if i := ownFrame(stack); i >= 0 {
		return stack[i], true
	}
	return at, false
}

// ownFrame is the index of stack's innermost frame of the program's own
// code, -1 when it has none.
func ownFrame(stack []report.Frame) int {
	for i, fr := range stack {
		if !vm.InLibrary(fr.File) {
			return i
		}
	}
	return -1
}

// failurePlace is where the editor shows failure f: where it happened, or
// for a failure inside a library the program's innermost call into it.
// from is that frame's index in f.Stack (0 for f's own place), and own
// says the place is the program's: false for a failure whose stack has
// no frame of the program's (a static destructor run by exit), shown
// where it happened.
func failurePlace(f *report.Failure) (at report.Frame, from int, own bool) {
	at = report.Frame{File: f.File, Line: f.Line}
	if !vm.InLibrary(f.File) {
		return at, 0, true
	}
	if i := ownFrame(f.Stack); i >= 0 {
		return f.Stack[i], i, true
	}
	return at, 0, false
}
