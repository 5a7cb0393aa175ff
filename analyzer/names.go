package analyzer

import (
	"strings"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/vm"
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
// call's (Endpoint.Call): its text is a call of one of syncCalls.
func nameRaces(src *srctext.Text, races []*race.Race) {
	for _, r := range races {
		if name := sourceName(src, r); name != "" {
			r.Object = name
		}
		for _, e := range []*race.Endpoint{&r.First, &r.Second} {
			e.Call = syncCall(src, *e)
		}
	}
}

// syncCalls are the prefixes of the functions whose accesses are uses or
// destroys of synchronization objects (libc's useObject, destroyObject).
var syncCalls = []string{"pthread_mutex_", "pthread_rwlock_", "pthread_spin_", "pthread_cond_", "pthread_barrier_", "sem_"}

// syncCall is the synchronization call the access e is, or "".
func syncCall(src *srctext.Text, e race.Endpoint) string {
	if e.Kind != vm.Read && e.Kind != vm.Write || e.Loc.File == "" {
		return ""
	}
	name := srcexpr.Callee(string(src.Line(e.Loc.File, e.Loc.Line)), e.Loc.Col)
	for _, p := range syncCalls {
		if strings.HasPrefix(name, p) {
			return name
		}
	}
	return ""
}

func sourceName(src *srctext.Text, r *race.Race) string {
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
		name := srcexpr.Name(string(src.Line(e.Loc.File, e.Loc.Line)), e.Loc.Col)
		if name == "" {
			continue
		}
		if global == "" || name == global || strings.HasPrefix(name, global+".") || strings.HasPrefix(name, global+"[") {
			return name
		}
	}
	return ""
}
