package report

import "augur/analyzer/frontend/ir"

// Demangle makes every function and object name in r readable: the
// analysis works with the program's symbol names, the report speaks C++.
func (r *Report) Demangle() {
	for i := range r.Races {
		x := &r.Races[i]
		x.Object, x.Memory, x.Consequence, x.Reason, x.Schedule = ir.ReadableName(x.Object), ir.ReadableName(x.Memory), ir.ReadableName(x.Consequence), ir.ReadableName(x.Reason), ir.ReadableName(x.Schedule)
		demangleAccesses(x.Accesses)
		if p := x.Pattern; p != nil {
			p.Evidence = ir.ReadableName(p.Evidence)
		}
		for j := range x.Fixes {
			x.Fixes[j].Title, x.Fixes[j].Checked = ir.ReadableName(x.Fixes[j].Title), ir.ReadableName(x.Fixes[j].Checked)
		}
		for j := range x.WeakReads {
			x.WeakReads[j].Object = ir.Readable(x.WeakReads[j].Object)
		}
		if f := x.Failure; f != nil {
			f.Message = ir.Readable(f.Message)
			demangleFrames(f.Stack)
		}
	}
	for i := range r.Failures {
		f := &r.Failures[i]
		f.Message = ir.Readable(f.Message)
		demangleFrames(f.Stack)
		for _, st := range f.Threads {
			demangleFrames(st)
		}
	}
	for i := range r.Inversions {
		inv := &r.Inversions[i]
		for j := range inv.Locks {
			inv.Locks[j] = ir.Readable(inv.Locks[j])
		}
		demangleAccesses(inv.First)
		demangleAccesses(inv.Second)
	}
	for i := range r.Incomplete {
		g := &r.Incomplete[i]
		g.Function, g.Message = ir.Readable(g.Function), ir.Readable(g.Message)
	}
	for i := range r.Havoc {
		r.Havoc[i] = ir.Readable(r.Havoc[i])
	}
}

func demangleAccesses(as []Access) {
	for i := range as {
		as[i].Function, as[i].ThreadStart = ir.ReadableName(as[i].Function), ir.ReadableName(as[i].ThreadStart)
		demangleFrames(as[i].Stack)
	}
}

func demangleFrames(fs []Frame) {
	for i := range fs {
		fs[i].Function = ir.ReadableName(fs[i].Function)
	}
}
