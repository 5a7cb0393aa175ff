package ir

import (
	"reflect"
	"strings"
	"testing"
)

// TestFingerprintCoversEveryField changes each field of a function, its
// instructions and a global, one at a time, and expects the code hash to
// change, except for locations, which must change the program's key and
// leave the code hash alone. A field added to those types and not to
// fingerprint.go fails here: the walk reaches every exported field.
func TestFingerprintCoversEveryField(t *testing.T) {
	build := func() *Program {
		callee := &Function{Name: "g", ID: 2}
		var fn Function
		fill(t, reflect.ValueOf(&fn).Elem(), 1)
		fn.ID = 1
		fn.Insts[0].Callee = callee
		var g Global
		fill(t, reflect.ValueOf(&g).Elem(), 3)
		return &Program{Funcs: []*Function{&fn, callee}, Globals: []*Global{&g},
			Locs: []Loc{{}, {File: "a.c", Line: 3, Col: 4}}, Messages: []string{"m"}, NumStatic: 7}
	}
	base := build()
	code, key := base.CodeHash(), base.Key()
	var paths []string
	walkLeaves(reflect.ValueOf(base).Elem(), "", func(path string, _ reflect.Value) { paths = append(paths, path) })
	if len(paths) < 40 {
		t.Fatalf("the walk found %d fields: %v", len(paths), paths)
	}
	for _, path := range paths {
		p := build()
		walkLeaves(reflect.ValueOf(p).Elem(), "", func(at string, v reflect.Value) {
			if at == path {
				change(v)
			}
		})
		location := strings.HasSuffix(path, ".Loc") || strings.Contains(path, ".Loc.") || strings.HasPrefix(path, "Locs")
		switch {
		case location && p.CodeHash() != code:
			t.Errorf("%s is a location, but changing it changes the code hash", path)
		case location && p.Key() == key:
			t.Errorf("%s: changing it leaves the program's key as it was", path)
		case !location && p.CodeHash() == code:
			t.Errorf("%s: changing it leaves the code hash as it was (fingerprint.go does not hash it)", path)
		}
	}
}

// walkLeaves calls visit with every number, string and boolean reachable
// from v through the exported fields the fingerprint reads (a program's
// functions, globals, locations and messages), slice elements included.
// Pointers to other functions (Inst.Callee) are left out: a callee is
// hashed by its id or name, which the walk reaches through Funcs.
func walkLeaves(v reflect.Value, path string, visit func(string, reflect.Value)) {
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if !f.IsExported() || v.Type() == reflect.TypeFor[Program]() && !fingerprinted[f.Name] {
				continue
			}
			walkLeaves(v.Field(i), strings.TrimPrefix(path+"."+f.Name, "."), visit)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			visit(path, v) // bytes (Global.Init) change as one value
			return
		}
		for i := 0; i < v.Len(); i++ {
			walkLeaves(v.Index(i), path+"["+string(rune('0'+i))+"]", visit)
		}
	case reflect.Pointer:
		if v.Type() == reflect.TypeFor[*Function]() && !strings.Contains(path, "Callee") && !v.IsNil() {
			walkLeaves(v.Elem(), path, visit)
		} else if v.Type() == reflect.TypeFor[*Global]() && !v.IsNil() {
			walkLeaves(v.Elem(), path, visit)
		}
	default:
		visit(path, v)
	}
}

// fingerprinted are the fields of Program the fingerprint covers; the
// others are derived from them (FuncOf, GlobalOf) or say where the
// program was loaded from (Bitcode, Names).
var fingerprinted = map[string]bool{"Funcs": true, "Globals": true, "Locs": true, "Messages": true, "NumStatic": true}

// change sets a leaf to another value of its kind.
func change(v reflect.Value) {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Slice:
		v.Set(reflect.AppendSlice(reflect.MakeSlice(v.Type(), 0, v.Len()+1), v))
		v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
	}
}

// A function's hash names what its code refers to: a function added
// before it, which renumbers every function and global, leaves it as it
// was (the code hash changes), and a change of its own code or of the
// name of a callee, a global whose address it takes or a thread-local
// changes it.
func TestFuncHashNamesWhatItRefersTo(t *testing.T) {
	build := func(shift uint32, callee, global, tls string, imm int64) *Program {
		a := &Function{Name: callee, ID: 1 + shift}
		g := &Global{Name: global, ID: 3 + shift, Size: 4}
		l := &Global{Name: tls, ID: 4 + shift, Size: 4, ThreadLocal: true}
		f := &Function{Name: "f", ID: 2 + shift, Consts: []uint64{uint64(g.ID)<<AddrShift | 8}, Insts: []Inst{
			{Op: OpCall, Dst: -1, Callee: a},
			{Op: OpTLSAddr, Dst: 1, Imm: 7<<32 | int64(l.ID)},
			{Op: OpRet, Dst: -1, Imm: imm},
		}}
		p := &Program{Funcs: []*Function{a, f}, Globals: []*Global{g, l}, NumStatic: 5 + shift}
		if shift > 0 {
			p.Funcs = append([]*Function{{Name: "added", ID: 1}}, p.Funcs...)
		}
		p.byName = map[string]*Function{}
		for _, fn := range p.Funcs {
			p.NameFunc(fn.Name, fn)
		}
		return p
	}
	base := build(0, "a", "g", "t", 0)
	if base.FuncHash("f") == "" {
		t.Fatal("f has no hash")
	}
	if h, moved := base.FuncHash("f"), build(1, "a", "g", "t", 0); moved.FuncHash("f") != h || moved.CodeHash() == base.CodeHash() {
		t.Errorf("a function added before f: f's hash %s -> %s, code hash changed: %v", h, moved.FuncHash("f"), moved.CodeHash() != base.CodeHash())
	}
	for what, p := range map[string]*Program{
		"its code": build(0, "a", "g", "t", 1), "its callee's name": build(0, "b", "g", "t", 0),
		"a global's name": build(0, "a", "h", "t", 0), "a thread-local's name": build(0, "a", "g", "u", 0),
	} {
		if p.FuncHash("f") == base.FuncHash("f") {
			t.Errorf("a change of %s leaves f's hash as it was", what)
		}
	}
	if base.FuncHash("none") != "" {
		t.Error("a function the program does not have has a hash")
	}
}
