package expr

import (
	"math/rand"
	"slices"
	"sort"
	"testing"
)

// TestVarsAreEachTermsOwn checks the variables every term records when it
// is made against a walk of the term, on random terms over four
// variables, and VarTerms of several terms against the union of theirs.
func TestVarsAreEachTermsOwn(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	b := NewBuilder()
	all := []*Expr{b.Variable("d", 8), b.Variable("a", 8), b.Variable("c", 8), b.Variable("b", 8)}
	walk := func(xs ...*Expr) []string {
		seen := map[string]bool{}
		var f func(*Expr)
		f = func(e *Expr) {
			if e.Op == Var {
				seen[e.Name] = true
			}
			for _, k := range e.Kids {
				f(k)
			}
		}
		for _, x := range xs {
			f(x)
		}
		var out []string
		for n := range seen {
			out = append(out, n)
		}
		sort.Strings(out)
		return out
	}
	var terms []*Expr
	for i := 0; i < 500; i++ {
		vs := []*Expr{all[r.Intn(4)], all[r.Intn(4)]}
		e := randomTerm(r, b, vs, 4)
		terms = append(terms, e)
		if got, want := Vars(e), walk(e); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("%v: Vars %v, want %v", e, got, want)
		}
	}
	for i := 0; i+3 <= len(terms); i += 3 {
		xs := terms[i : i+3]
		var got []string
		for _, v := range VarTerms(xs...) {
			got = append(got, v.Name)
		}
		if want := walk(xs...); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("%v: VarTerms %v, want %v", xs, got, want)
		}
	}
}
