package ir

import (
	"errors"
	"reflect"
	"testing"
)

// TestCodecKeepsEveryField fills every field of a function, its
// instructions, a global and a location with a value that is not zero, and
// expects the decoded program to equal it. A field added to those types
// and not to codec.go fails here: fill reaches every exported field by
// reflection, and a kind it does not know fails the test too.
func TestCodecKeepsEveryField(t *testing.T) {
	callee := &Function{Name: "g", ID: 2}
	var fn Function
	fill(t, reflect.ValueOf(&fn).Elem(), 1)
	fn.ID = 1
	fn.Insts = append(fn.Insts, Inst{Op: OpRet, Dst: -1}) // every optional field zero
	fn.Insts[0].Callee = callee
	var g Global
	fill(t, reflect.ValueOf(&g).Elem(), 3)
	img := &programImage{Funcs: []*Function{&fn, callee}, Globals: []*Global{&g},
		Locs:     []Loc{{}, {File: "a.c", Line: 3, Col: 4}, {File: "b.c", Line: 5}, {File: "a.c", Line: 6}},
		Messages: []string{"unsupported"}, NumStatic: 7, Aliases: map[string]uint32{"alias": 2}}

	got, callees, err := decodeProgram(encodeProgram(nil, img))
	if err != nil {
		t.Fatal(err)
	}
	if len(callees) != 2 || len(callees[0]) != len(fn.Insts) || callees[0][0] != 2 || callees[0][1] != 0 {
		t.Fatalf("callee ids %v", callees)
	}
	got.Funcs[0].Insts[0].Callee = got.Funcs[1] // as DecodeProgram links them
	if !reflect.DeepEqual(got, img) {
		t.Errorf("decoded program differs:\n got %+v\nwant %+v", *got.Funcs[0], fn)
	}
}

// fill sets every settable field reachable from v (structs, slices of
// one element, numbers, strings, booleans) to a value that is not zero,
// derived from seed. Pointers are left to the caller (Inst.Callee), as
// are unexported fields (Function.code, which the cache does not hold).
func fill(t *testing.T, v reflect.Value, seed int64) {
	t.Helper()
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(t, v.Field(i), seed+int64(i)+1)
			}
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(t, v.Index(0), seed+1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(-seed) // negative: varints of both signs
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(seed))
	case reflect.String:
		v.SetString("s" + string(rune('a'+seed%26)))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		// linked by id, see above
	default:
		t.Fatalf("fill: %s of kind %s: teach codec.go and this test about it", v.Type(), v.Kind())
	}
}

// A truncated or damaged encoding is an error, never a panic or a huge
// allocation: the cache file may have been cut short by a full disk.
func TestCodecRejectsDamage(t *testing.T) {
	fn := &Function{Name: "f", ID: 1, Insts: []Inst{{Op: OpBr, Dst: -1, Targets: []Edge{{PC: 1, Moves: []Move{{Dst: 1, Src: 2, N: 1}}}}}}}
	enc := encodeProgram(nil, &programImage{Funcs: []*Function{fn}, NumStatic: 2, Locs: []Loc{{File: "x.c", Line: 1}}})
	for n := 0; n < len(enc); n++ {
		if _, _, err := decodeProgram(enc[:n]); !errors.Is(err, errCorrupt) {
			t.Fatalf("%d of %d bytes: %v, want a corrupt encoding", n, len(enc), err)
		}
	}
	if _, _, err := decodeProgram(append(enc, 0)); !errors.Is(err, errCorrupt) {
		t.Fatalf("a byte past the end: %v", err)
	}
	if _, _, err := decodeProgram(encodeProgram(nil, &programImage{NumStatic: 1 << 31})); !errors.Is(err, errCorrupt) {
		t.Fatalf("2 G static objects in a few bytes: %v", err)
	}
	huge := encodeProgram(nil, &programImage{NumStatic: 1})
	huge = append(huge[:1], 0xff, 0xff, 0xff, 0xff, 0x0f) // a function count of 4 G
	if _, _, err := decodeProgram(huge); !errors.Is(err, errCorrupt) {
		t.Fatalf("a count past the bytes: %v", err)
	}
}
