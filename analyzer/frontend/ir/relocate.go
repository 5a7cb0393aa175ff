package ir

import (
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"sync"
)

// Relocator is a value that moves its own locations (its state is not
// exported fields, so Relocate cannot reach it): it returns a copy.
type Relocator interface {
	Relocate(text func(string) string) any
}

// Relocate returns a deep copy of v for a program whose code is the same
// and whose locations m maps (MapLocs): a save that moved only comments,
// blank lines or formatting. Every Loc and LocID in v moves, and so does
// every "file:line:col" and "file:line" in string fields tagged `loc:"text"` (messages,
// locations written as text); values that are Relocators move themselves.
// It walks exported fields, so a result that is plain data needs no code
// of its own to be moved. Pointers v shares stay shared in the copy; parts
// of v that cannot hold a location (terms, solver state, functions,
// interfaces) are shared with v, not copied.
func Relocate[T any](v T, m *LocMap) T {
	r := &relocator{m: m, text: map[string]string{}, seen: map[uintptr]reflect.Value{}}
	ambiguous := map[string]bool{}
	for a, b := range m.Locs {
		r.text[a.String()] = b.String()
		// Messages also name a line without its column, by the file's
		// path or its base name ("allocated at a.c:12"); a line that
		// moved to two places is left as it is.
		for _, f := range [][2]string{{a.File, b.File}, {filepath.Base(a.File), filepath.Base(b.File)}} {
			from, to := fmt.Sprintf("%s:%d", f[0], a.Line), fmt.Sprintf("%s:%d", f[1], b.Line)
			if old, ok := r.text[from]; ok && old != to {
				ambiguous[from] = true
			}
			r.text[from] = to
		}
	}
	for k := range ambiguous {
		delete(r.text, k)
	}
	src := reflect.ValueOf(&v).Elem()
	out := reflect.New(src.Type()).Elem()
	r.copy(out, src)
	return out.Interface().(T)
}

type relocator struct {
	m    *LocMap
	text map[string]string
	seen map[uintptr]reflect.Value // pointers already copied
}

var (
	locType       = reflect.TypeFor[Loc]()
	locIDType     = reflect.TypeFor[LocID]()
	relocatorType = reflect.TypeFor[Relocator]()
	// locText matches a location written into a message: file:line:col
	// or file:line.
	locText = regexp.MustCompile(`[^\s():,]+:\d+(?::\d+)?`)
)

// mapText moves the locations a message mentions ("double free of heap
// object allocated at a.c:12:8", "main (a.c:12)").
func (r *relocator) mapText(s string) string {
	return locText.ReplaceAllStringFunc(s, func(l string) string {
		if n, ok := r.text[l]; ok {
			return n
		}
		return l
	})
}

// copy sets dst (settable, of src's type) to a relocated copy of src.
func (r *relocator) copy(dst, src reflect.Value) {
	t := src.Type()
	switch {
	case t == locType:
		dst.Set(reflect.ValueOf(r.m.Loc(src.Interface().(Loc))))
		return
	case t == locIDType:
		dst.Set(reflect.ValueOf(r.m.ID(src.Interface().(LocID))))
		return
	case t.Kind() != reflect.Interface && t.Implements(relocatorType) && !(t.Kind() == reflect.Pointer && src.IsNil()):
		dst.Set(reflect.ValueOf(src.Interface().(Relocator).Relocate(r.mapText)))
		return
	case !holdsLocations(t):
		dst.Set(src)
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		if p, ok := r.seen[src.Pointer()]; ok {
			dst.Set(p)
			return
		}
		p := reflect.New(t.Elem())
		r.seen[src.Pointer()] = p
		r.copy(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Struct:
		dst.Set(src) // unexported fields as they are
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			if f.Type.Kind() == reflect.String && f.Tag.Get("loc") == "text" {
				dst.Field(i).SetString(r.mapText(src.Field(i).String()))
				continue
			}
			r.copy(dst.Field(i), src.Field(i))
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(t, src.Len(), src.Len())
		for i := 0; i < src.Len(); i++ {
			r.copy(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	case reflect.Array:
		for i := 0; i < src.Len(); i++ {
			r.copy(dst.Index(i), src.Index(i))
		}
	case reflect.Map:
		if src.IsNil() {
			return
		}
		mp := reflect.MakeMapWithSize(t, src.Len())
		it := src.MapRange()
		for it.Next() {
			e := reflect.New(t.Elem()).Elem()
			r.copy(e, it.Value())
			mp.SetMapIndex(it.Key(), e)
		}
		dst.Set(mp)
	default:
		dst.Set(src)
	}
}

// holdsLocations reports whether a value of type t can hold a location
// Relocate moves (in its exported parts), so values that cannot are shared
// rather than walked. Interfaces, functions and channels are opaque.
func holdsLocations(t reflect.Type) bool {
	if v, ok := holds.Load(t); ok {
		return v.(bool)
	}
	visiting := map[reflect.Type]bool{}
	return holdsIn(t, visiting)
}

var holds sync.Map // reflect.Type -> bool

func holdsIn(t reflect.Type, visiting map[reflect.Type]bool) bool {
	if v, ok := holds.Load(t); ok {
		return v.(bool)
	}
	if visiting[t] {
		return false // a cycle: answered by the type that started it
	}
	visiting[t] = true
	var h bool
	switch {
	case t == locType || t == locIDType:
		h = true
	case t.Kind() != reflect.Interface && t.Implements(relocatorType):
		h = true
	default:
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			h = holdsIn(t.Elem(), visiting)
		case reflect.Struct:
			for i := 0; i < t.NumField() && !h; i++ {
				f := t.Field(i)
				h = f.IsExported() && (f.Tag.Get("loc") == "text" || holdsIn(f.Type, visiting))
			}
		}
	}
	delete(visiting, t)
	if len(visiting) == 0 || h {
		holds.Store(t, h)
	}
	return h
}
