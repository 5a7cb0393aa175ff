package libc

import (
	"reflect"
	"testing"

	"augur/analyzer/exec/vm"
)

// TestPositionalKinds checks how a numbered format's arguments are read
// ahead: each as the conversions that name it say, a gap as a word, and
// not at all when the format does not number its conversions.
func TestPositionalKinds(t *testing.T) {
	for _, c := range []struct {
		fmt  string
		want []argKind
	}{
		{"%2$s-%1$d", []argKind{argWord, argWord}},
		{"%3$*1$.*2$f|%1$d", []argKind{argWord, argWord, argDouble}},
		{"%2$Lf %1$d %4$e %2$.1Lf 100%%", []argKind{argWord, argLongDouble, argWord, argDouble}},
		{"%1$s%2$n", []argKind{argWord, argWord}},
		{"%d %s", nil},
		{"%d %1$s", nil},
		{"no conversions", nil},
	} {
		if got := positionalKinds(c.fmt); !reflect.DeepEqual(got, c.want) {
			t.Errorf("positionalKinds(%q) = %v, want %v", c.fmt, got, c.want)
		}
	}
}

// TestPositionalArgsServeByNumber checks that the arguments are read in
// order once, then served by number, twice if named twice.
func TestPositionalArgsServeByNumber(t *testing.T) {
	src := &callArgs{vals: []vm.Value{{Bits: 10}, {Bits: 20}, {Bits: 30}}}
	p, err := readPositional([]argKind{argWord, argWord}, src)
	if err != nil || len(p.vals) != 2 || src.i != 2 {
		t.Fatalf("readPositional read %d arguments: %v, %v", src.i, p, err)
	}
	for _, c := range []struct{ seek, want int }{{2, 20}, {1, 10}, {2, 20}, {3, 0}} {
		p.seek(c.seek)
		if v, _ := p.next(false, false); int(v) != c.want {
			t.Errorf("argument %d = %d, want %d", c.seek, v, c.want)
		}
	}
}
