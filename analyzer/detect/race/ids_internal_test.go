package race

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// A race's id is its identity across runs, edits and versions: ignore
// lists, evidence files and the history name races by it. The ids are
// built without formatting and remembered now; they must be the ids the
// formatted keys gave.
func TestRaceIDsAreTheFormattedKeysHashes(t *testing.T) {
	r := &Race{ObjectKey: "global:g7", Instance: Instance{
		First: Endpoint{Loc: ir.Loc{File: "/src/many.c", Line: 12, Col: 29}, FuncLine: 10,
			Stack: []vm.StackFrame{{Function: "bump7"}, {Function: "worker"}}},
		Second: Endpoint{Loc: ir.Loc{File: "/src/many.c", Line: 12, Col: 31}, FuncLine: 10,
			Stack: []vm.StackFrame{{Function: "bump7"}, {Function: "worker"}}},
	}}
	if got, want := lineKey(r.First), "many.c|bump7<worker|2"; got != want {
		t.Errorf("lineKey = %q, want %q", got, want)
	}
	if got, want := endpointKey(r.Second), "many.c|bump7<worker|2:31"; got != want {
		t.Errorf("endpointKey = %q, want %q", got, want)
	}
	hash := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:6]) }
	want := hash("global:g7\x00many.c|bump7<worker|2:29\x00many.c|bump7<worker|2:31")
	for i := 0; i < 2; i++ { // computed, then remembered
		if got := StableID(r); got != want {
			t.Errorf("StableID (call %d) = %s, want %s", i+1, got, want)
		}
	}
	wantCand := hash("candidate\x00global:g7\x00/src/many.c:12\x00/src/many.c:12")
	if got := RaceCandidateID(r); got != wantCand {
		t.Errorf("RaceCandidateID = %s, want %s", got, wantCand)
	}
}
