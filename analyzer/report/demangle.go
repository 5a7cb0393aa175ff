package report

import "augur/analyzer/ir"

// readable and readableName are ir's.
var readable, readableName = ir.Readable, ir.ReadableName

// Demangle makes every function and object name in r readable: the
// analysis works with the program's symbol names, the report speaks C++.
func (r *Report) Demangle() {
	for i := range r.Races {
		x := &r.Races[i]
		x.Object, x.Consequence, x.Reason, x.Schedule = readableName(x.Object), readableName(x.Consequence), readableName(x.Reason), readableName(x.Schedule)
		demangleAccesses(x.Accesses)
		for j := range x.WeakReads {
			x.WeakReads[j].Object = readable(x.WeakReads[j].Object)
		}
	}
	for i := range r.Failures {
		f := &r.Failures[i]
		f.Message = readable(f.Message)
		demangleFrames(f.Stack)
		for _, st := range f.Threads {
			demangleFrames(st)
		}
	}
	for i := range r.Inversions {
		inv := &r.Inversions[i]
		for j := range inv.Locks {
			inv.Locks[j] = readable(inv.Locks[j])
		}
		demangleAccesses(inv.First)
		demangleAccesses(inv.Second)
	}
	for i := range r.Incomplete {
		g := &r.Incomplete[i]
		g.Function, g.Message = readable(g.Function), readable(g.Message)
	}
	for i := range r.Havoc {
		r.Havoc[i] = readable(r.Havoc[i])
	}
}

func demangleAccesses(as []Access) {
	for i := range as {
		as[i].Function = readableName(as[i].Function)
		demangleFrames(as[i].Stack)
	}
}

func demangleFrames(fs []Frame) {
	for i := range fs {
		fs[i].Function = readableName(fs[i].Function)
	}
}
