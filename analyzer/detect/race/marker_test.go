package race

import (
	"reflect"
	"testing"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// A race inside a library is silenced at the program's call into it too:
// its access's own line is in a header no one edits.
func TestMarkerSitesIncludeTheProgramsCallIntoALibrary(t *testing.T) {
	header := ir.Loc{File: "/usr/bin/../lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/bits/stl_tree.h", Line: 2384}
	runtime := ir.Loc{File: "augur-runtime/cxx/tree.cc", Line: 27}
	call := ir.Loc{File: "/w/map.cpp", Line: 12}
	own := ir.Loc{File: "/w/map.cpp", Line: 20}
	r := &Race{Instance: Instance{
		First: Endpoint{Loc: runtime, Stack: []vm.StackFrame{{Function: "rotateLeft", Loc: runtime},
			{Function: "std::_Rb_tree::_M_insert_node", Loc: header}, {Function: "fill", Loc: call}, {Function: "main", Loc: own}}},
		Second: Endpoint{Loc: own, Stack: []vm.StackFrame{{Function: "main", Loc: own}}},
	}}
	if got, want := r.MarkerSites(), []ir.Loc{runtime, call, own}; !reflect.DeepEqual(got, want) {
		t.Errorf("MarkerSites = %v, want %v", got, want)
	}
}
