package analyzer

import (
	"slices"
	"strings"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/frontend/srctext"
	"augur/analyzer/output/srcexpr"
)

// One name for each thing: a race's memory is called what the source
// calls it at the racing accesses (`pool->queue.len`), in the report, its
// consequence, its evidence and the editor alike; the machine's own
// description (an allocation site and an offset) stays beside it as
// Race.Memory.

// nameRaces sets each race's Object to the expression that names its
// memory at the first of its accesses that spells one out (a read or a
// write, not a free, whose text is the call), reading the sources through
// src. A global must be named from its own name (`stats.count` for
// stats), or the text is another thing's; where no access's text names
// the memory, Object stays its description.
//
// It also sets each access's Call when the access is a synchronization
// call's (Endpoint.Call): the code at its place can touch the race's
// memory only through calls of one of syncCalls (codePlaces.syncCall).
func nameRaces(src *srctext.Text, prog *ir.Program, races []*race.Race) {
	if len(races) == 0 {
		return
	}
	places := placesOf(prog)
	for _, r := range races {
		if name := sourceName(src, places, r); name != "" {
			r.Object = name
		}
		global, ok := strings.CutPrefix(r.ObjectKey, "global:")
		if !ok {
			global = ""
		}
		for _, e := range []*race.Endpoint{&r.First, &r.Second} {
			if e.Kind == vm.Read || e.Kind == vm.Write {
				e.Call = places.syncCall(e.Loc, global)
			}
		}
	}
}

// syncCalls are the prefixes of the functions whose accesses are uses or
// destroys of synchronization objects (libc's useObject, destroyObject).
var syncCalls = []string{"pthread_mutex_", "pthread_rwlock_", "pthread_spin_", "pthread_cond_", "pthread_barrier_", "sem_"}

func isSyncCall(name string) bool {
	for _, p := range syncCalls {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// quietSyncCall reports whether a synchronization function makes no
// access the detector sees: libc counts uses and destroys only, not an
// unlock or an init (libc.md).
func quietSyncCall(name string) bool {
	return strings.HasSuffix(name, "_unlock") || strings.HasSuffix(name, "_init")
}

// A place is what the program's code does at one place of the source:
// the functions it calls there and the memory it may touch. All the code
// of a macro's expansion has the macro's place, so one place may do
// several things (ctrace's HASH_READ_ENTER locks a mutex, waits on a
// semaphore and counts readers).
type place struct {
	callees []string
	touches []touch
}

// A touch is one way the code at a place may access memory: a load, a
// store, an atomic, or a library function called with a pointer.
type touch struct {
	call   string // the synchronization function, or "" for any other access
	global string // the global the address names, "" when the code computes it
}

// codePlaces are the places of a program where it calls a function or
// touches memory, read from its code rather than the source text, so that
// what a macro does is known too.
type codePlaces map[ir.Loc]*place

// placesOf reads prog's code into its places. Several location ids may
// stand for one place (ir.Program.LocString), so places are keyed by the
// place itself.
func placesOf(prog *ir.Program) codePlaces {
	places := codePlaces{}
	at := func(id ir.LocID) *place {
		l := prog.Loc(id)
		p := places[l]
		if p == nil {
			p = &place{}
			places[l] = p
		}
		return p
	}
	for _, fn := range prog.Funcs {
		for i := range fn.Insts {
			in := &fn.Insts[i]
			switch in.Op {
			case ir.OpLoad, ir.OpAtomicRMW, ir.OpCmpXchg:
				p := at(in.Loc)
				p.touches = append(p.touches, touch{global: constGlobal(prog, fn, in.A)})
			case ir.OpStore:
				p := at(in.Loc)
				p.touches = append(p.touches, touch{global: constGlobal(prog, fn, in.B)})
			case ir.OpCall:
				p := at(in.Loc)
				if in.Callee == nil {
					p.touches = append(p.touches, touch{})
					continue
				}
				if !slices.Contains(p.callees, in.Callee.Name) {
					p.callees = append(p.callees, in.Callee.Name)
				}
				// A function of the program accesses memory at its own
				// places, and free's access is a free, never named by a call.
				if !in.Callee.Decl || in.Callee.Name == "free" {
					continue
				}
				call := ""
				if isSyncCall(in.Callee.Name) {
					if quietSyncCall(in.Callee.Name) {
						continue
					}
					call = in.Callee.Name
				}
				for j, a := range in.Args {
					if j < len(in.ArgTys) && in.ArgTys[j].Kind == ir.KPtr {
						p.touches = append(p.touches, touch{call: call, global: constGlobal(prog, fn, a)})
					}
				}
			}
		}
	}
	return places
}

// constGlobal is the name of the global a constant operand of fn points
// into, or "" when the operand is computed (or points elsewhere).
func constGlobal(prog *ir.Program, fn *ir.Function, op ir.Operand) string {
	i := int(op) - fn.NumSlots
	if i < 0 || i >= len(fn.Consts) {
		return ""
	}
	id := uint32(fn.Consts[i] >> ir.AddrShift)
	if int(id) < len(prog.GlobalOf) && prog.GlobalOf[id] != nil {
		return prog.GlobalOf[id].Name
	}
	return ""
}

// syncCall is the synchronization function whose call an access at loc
// to the race's memory must be (global: its name when the memory is a
// global, else ""): every touch at loc that can reach that memory is a
// call of that one function. "" when another access there could be it.
func (cp codePlaces) syncCall(loc ir.Loc, global string) string {
	p := cp[loc]
	if p == nil {
		return ""
	}
	name := ""
	for _, t := range p.touches {
		if t.global != "" && t.global != global {
			continue // it names another global: not this memory
		}
		if t.call == "" || name != "" && name != t.call {
			return ""
		}
		name = t.call
	}
	return name
}

// macroAt reports whether the source text at loc calls callee, a name the
// code does not call there: a macro (or a call compiled into something
// else, an intrinsic or an inlined body, whose plain arguments are then
// not trusted to name the memory either).
func (cp codePlaces) macroAt(loc ir.Loc, callee string) bool {
	p := cp[loc]
	return callee != "" && (p == nil || !slices.Contains(p.callees, callee))
}

func sourceName(src *srctext.Text, places codePlaces, r *race.Race) string {
	global := ""
	for _, kind := range []string{"global:", "thread-local:"} {
		if g, ok := strings.CutPrefix(r.ObjectKey, kind); ok {
			global = g
		}
	}
	for _, e := range []race.Endpoint{r.First, r.Second} {
		if e.Kind == vm.Free || e.Loc.File == "" {
			continue
		}
		line := string(src.Line(e.Loc.File, e.Loc.Line))
		name := srcexpr.Name(line, e.Loc.Col)
		if places.macroAt(e.Loc, srcexpr.Callee(line, e.Loc.Col)) {
			name = srcexpr.MacroName(line, e.Loc.Col)
		}
		if name == "" {
			continue
		}
		if global == "" || name == global || strings.HasPrefix(name, global+".") || strings.HasPrefix(name, global+"[") {
			return name
		}
	}
	return ""
}
