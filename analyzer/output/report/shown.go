package report

import "augur/analyzer/exec/vm"

// This file places a racing access where the developer can act on it. An
// access inside a library (a std::map's insert in libstdc++'s headers, a
// tree rotation in augur's C++ runtime) belongs at the program's innermost
// call into the library: the line that called std::map's operator[] is
// the line to lock around, or to mark with augur:ignore
// (race.MarkerSites silences it there too). The editor shows races there,
// and the text report counts them by those calls.

// InProgram is access a where the program made it: a itself when it is in
// the program's own code; otherwise a at the program's innermost frame,
// with that frame's callers as its stack, and via the library function
// the program called there ("std::map::operator[]"). ok is false when no
// frame of the stack is the program's (a static object's destructor run
// by exit): a is then returned as it is.
func (a Access) InProgram() (shown Access, via string, ok bool) {
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

// PlaceInProgram is InProgram for a place with its call stack (innermost
// first, nil when unknown): itself when it is the program's (from 0),
// else the program's innermost frame, stack[from]. ok is false for a
// place inside a library with no frame of the program's; at is returned.
func PlaceInProgram(at Frame, stack []Frame) (fr Frame, from int, ok bool) {
	if !vm.InLibrary(at.File) {
		return at, 0, true
	}
	if i := ownFrame(stack); i >= 0 {
		return stack[i], i, true
	}
	return at, 0, false
}

// ownFrame is the index of stack's innermost frame of the program's own
// code, -1 when it has none.
func ownFrame(stack []Frame) int {
	for i, fr := range stack {
		if !vm.InLibrary(fr.File) {
			return i
		}
	}
	return -1
}
