package ir

import (
	"fmt"
	"testing"
	"unsafe"
)

type relocInner struct {
	At   Loc
	ID   LocID
	Note string `loc:"text"`
	Data string // not tagged: program output, left alone
}

type relocOuter struct {
	A, B    *relocInner // the same pointer twice
	List    []relocInner
	ByID    map[int][]relocInner
	Plain   []string
	private Loc
}

// TestRelocate moves Locs, LocIDs and tagged text everywhere in a value,
// keeps shared pointers shared and leaves the original alone.
func TestRelocate(t *testing.T) {
	from, to := Loc{File: "/w/a.c", Line: 3, Col: 5}, Loc{File: "/w/a.c", Line: 7, Col: 5}
	// Line 4 holds two statements that moved apart: a message naming the
	// line alone keeps it.
	split1, split2 := Loc{File: "/w/a.c", Line: 4, Col: 1}, Loc{File: "/w/a.c", Line: 4, Col: 9}
	m := &LocMap{Locs: map[Loc]Loc{from: to, split1: {File: "/w/a.c", Line: 8, Col: 1}, split2: {File: "/w/a.c", Line: 9, Col: 1}},
		IDs: map[LocID]LocID{4: 9}}
	note := "freed at /w/a.c:3:5, allocated at a.c:3, in f (/w/a.c:3), split a.c:4, unknown b.c:3"
	in := &relocInner{At: from, ID: 4, Note: note, Data: "/w/a.c:3:5"}
	v := relocOuter{A: in, B: in, List: []relocInner{*in}, ByID: map[int][]relocInner{1: {*in}}, Plain: []string{"a.c:3:5"}, private: from}
	got := Relocate(v, m)
	if got.A != got.B || got.A == in {
		t.Fatalf("shared pointer: %p %p (original %p)", got.A, got.B, in)
	}
	for _, x := range []relocInner{*got.A, got.List[0], got.ByID[1][0]} {
		if x.At != to || x.ID != 9 || x.Note != "freed at /w/a.c:7:5, allocated at a.c:7, in f (/w/a.c:7), split a.c:4, unknown b.c:3" ||
			x.Data != "/w/a.c:3:5" {
			t.Errorf("not relocated: %+v", x)
		}
	}
	if got.Plain[0] != "a.c:3:5" || got.private != from {
		t.Errorf("untagged text or unexported field moved: %q %v", got.Plain[0], got.private)
	}
	if in.At != from || v.List[0].ID != 4 || v.ByID[1][0].Note != note {
		t.Errorf("the original changed: %+v", v)
	}
}

// LocSet marks every id whose text is asked for (one text may name several
// ids) and nothing else; no text found gives nil.
func TestLocSet(t *testing.T) {
	p := &Program{Locs: []Loc{{}, {File: "a.c", Line: 3, Col: 2}, {File: "b.c", Line: 1, Col: 1}, {File: "a.c", Line: 3, Col: 2}}}
	got := p.LocSet([]string{"a.c:3:2", "zz.c:1:1"})
	want := []bool{false, true, false, true}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("LocSet = %v, want %v", got, want)
	}
	if s := p.LocSet([]string{"zz.c:1:1"}); s != nil {
		t.Errorf("LocSet of an unknown text = %v, want nil", s)
	}
	if s := p.LocSet(nil); s != nil {
		t.Errorf("LocSet(nil) = %v", s)
	}
}

// A location's text is made once, on first use, and every caller gets the
// same string, also when several goroutines (classification's workers) ask
// at once; the lookup by text sees every id.
func TestLocStringIsMadeOnceForAll(t *testing.T) {
	p := &Program{Locs: []Loc{{}, {File: "a.c", Line: 3, Col: 2}, {File: "b.c", Line: 1}}}
	texts := make(chan string, 8)
	for range 8 {
		go func() { texts <- p.LocString(1) }()
	}
	first := <-texts
	for range 7 {
		if s := <-texts; unsafe.StringData(s) != unsafe.StringData(first) || s != "a.c:3:2" {
			t.Errorf("LocString(1) = %q at %p, want the one %q", s, unsafe.StringData(s), first)
		}
	}
	if p.LocString(0) != "<unknown>" || p.LocString(2) != "b.c:1" {
		t.Errorf("texts %q %q", p.LocString(0), p.LocString(2))
	}
	if l := p.LocOf("b.c:1"); l != p.Locs[2] {
		t.Errorf("LocOf(b.c:1) = %+v", l)
	}
}
