package report

import (
	"strings"
	"testing"
)

const stlTree = "/usr/bin/../lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/bits/stl_tree.h"

// An access inside a library shows at the program's innermost call into
// it, named by the library function called there; one of the program's
// own shows where it is; and one whose stack holds no frame of the
// program's (a destructor run by exit) stays where it happened.
func TestAccessInProgram(t *testing.T) {
	own := Access{File: "/w/map.cpp", Line: 20, Function: "main",
		Stack: []Frame{{Function: "main", File: "/w/map.cpp", Line: 20}}}
	if got, via, ok := own.InProgram(); !ok || via != "" || got.Line != 20 {
		t.Errorf("the program's access: shown %+v via %q ok %v", got, via, ok)
	}
	insert := Access{File: stlTree, Line: 2384, Function: "std::_Rb_tree::_M_insert_node", Stack: []Frame{
		{Function: "std::_Rb_tree::_M_insert_node", File: stlTree, Line: 2384},
		{Function: "std::map::operator[]", File: stlTree, Line: 530},
		{Function: "fill", File: "/w/map.cpp", Line: 12, Column: 3},
		{Function: "main", File: "/w/map.cpp", Line: 30}}}
	got, via, ok := insert.InProgram()
	if !ok || via != "std::map::operator[]" || got.File != "/w/map.cpp" || got.Line != 12 || got.Column != 3 ||
		got.Function != "fill" || len(got.Stack) != 2 {
		t.Errorf("the access inside std::map: shown %+v via %q ok %v", got, via, ok)
	}
	atExit := Access{File: stlTree, Line: 1935, Function: "std::_Rb_tree::_M_erase", Stack: []Frame{
		{Function: "std::_Rb_tree::_M_erase", File: stlTree, Line: 1935},
		{Function: "exit", File: "augur-runtime/libc/start.c", Line: 92}}}
	if got, via, ok := atExit.InProgram(); ok || via != "" || got.File != stlTree || got.Line != 1935 {
		t.Errorf("the access at exit: shown %+v via %q ok %v", got, via, ok)
	}
}

// The text report counts the races inside library code by the program's
// calls into it; a report with none has no LIBRARIES line.
func TestLibrariesLineCountsRacesByTheProgramsCalls(t *testing.T) {
	inside := func(line int) Access {
		return Access{File: stlTree, Line: line, Stack: []Frame{{Function: "std::_Rb_tree::_M_insert_node", File: stlTree, Line: line},
			{Function: "std::map::operator[]", File: stlTree, Line: 530}, {Function: "fill", File: "map.cpp", Line: 12}}}
	}
	own := Access{File: "map.cpp", Line: 20, Stack: []Frame{{Function: "main", File: "map.cpp", Line: 20}}}
	r := &Report{Races: []Race{{Accesses: []Access{inside(2384), inside(2390)}}, {Accesses: []Access{inside(735), inside(2384)}},
		{Accesses: []Access{own, inside(735)}}, {Accesses: []Access{own, own}}}}
	var b strings.Builder
	if err := WriteText(&b, r); err != nil {
		t.Fatal(err)
	}
	want := "LIBRARIES: 3 of the races are inside library code, from 2 pairs of the program's calls: " +
		"std::map::operator[] at map.cpp:12 with std::map::operator[] at map.cpp:12; map.cpp:20 with std::map::operator[] at map.cpp:12\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("the report\n%s\nlacks %q", b.String(), want)
	}
	b.Reset()
	if err := WriteText(&b, &Report{Races: []Race{{Accesses: []Access{own, own}}}}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "LIBRARIES") {
		t.Errorf("a report with no race inside a library:\n%s", b.String())
	}
}
