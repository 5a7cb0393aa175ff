package lsp

import (
	"testing"

	"augur/analyzer/output/report"
)

const stlTree = "/usr/bin/../lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/bits/stl_tree.h"

// An access inside a library shows at the program's innermost call into
// it, named by the library function called there; one of the program's
// own shows where it is; and one whose stack holds no frame of the
// program's (a destructor run by exit) stays where it happened.
func TestShownAccess(t *testing.T) {
	own := report.Access{File: "/w/map.cpp", Line: 20, Function: "main",
		Stack: []report.Frame{{Function: "main", File: "/w/map.cpp", Line: 20}}}
	if got, via, ok := shownAccess(own); !ok || via != "" || got.Line != 20 {
		t.Errorf("the program's access: shown %+v via %q ok %v", got, via, ok)
	}
	insert := report.Access{File: stlTree, Line: 2384, Function: "std::_Rb_tree::_M_insert_node", Stack: []report.Frame{
		{Function: "std::_Rb_tree::_M_insert_node", File: stlTree, Line: 2384},
		{Function: "std::map::operator[]", File: stlTree, Line: 530},
		{Function: "fill", File: "/w/map.cpp", Line: 12, Column: 3},
		{Function: "main", File: "/w/map.cpp", Line: 30}}}
	got, via, ok := shownAccess(insert)
	if !ok || via != "std::map::operator[]" || got.File != "/w/map.cpp" || got.Line != 12 || got.Column != 3 ||
		got.Function != "fill" || len(got.Stack) != 2 {
		t.Errorf("the access inside std::map: shown %+v via %q ok %v", got, via, ok)
	}
	atExit := report.Access{File: stlTree, Line: 1935, Function: "std::_Rb_tree::_M_erase", Stack: []report.Frame{
		{Function: "std::_Rb_tree::_M_erase", File: stlTree, Line: 1935},
		{Function: "exit", File: "augur-runtime/libc/start.c", Line: 92}}}
	if got, via, ok := shownAccess(atExit); ok || via != "" || got.File != stlTree || got.Line != 1935 {
		t.Errorf("the access at exit: shown %+v via %q ok %v", got, via, ok)
	}
}

// Races inside a library between the same two calls fold into one site,
// whatever their categories, the most severe standing for the rest; races
// of the program's own fold only with their category.
func TestFoldSitesKeepsTheMostSevereOfALibrarysRaces(t *testing.T) {
	call := report.Access{File: "/w/map.cpp", Line: 12, Kind: "write"}
	site := func(category, via string) raceSite {
		s := raceSite{race: &report.Race{}, category: category, shown: [2]report.Access{call, call}}
		s.via = [2]string{via, via}
		return s
	}
	got := foldSites([]raceSite{site("k-witness-harmless", "std::map::operator[]"), site("spec-violated", "std::map::operator[]"),
		site("output-differs", "std::map::operator[]"), site("k-witness-harmless", ""), site("output-differs", "")})
	if len(got) != 3 {
		t.Fatalf("want 3 sites (the library's, and the program's two categories), got %d: %+v", len(got), got)
	}
	if got[0].category != "spec-violated" || got[0].also != 2 || !got[0].inLibrary() {
		t.Errorf("the library's site: %s standing for %d more, want spec-violated for 2", got[0].category, got[0].also)
	}
	if got[1].category != "k-witness-harmless" || got[2].category != "output-differs" || got[1].also+got[2].also != 0 {
		t.Errorf("the program's sites: %s (+%d), %s (+%d)", got[1].category, got[1].also, got[2].category, got[2].also)
	}
}
