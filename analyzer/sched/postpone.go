package sched

import "fmt"

// Postpone replays the first len(Prefix) decisions of a recorded schedule,
// then keeps Thread from running for as long as any other thread can: it
// reverses the order in which Thread reaches its next synchronization
// relative to the others (Carril and Tichy's interleaving generation: from
// one trace, schedules that acquire the same locks in another order).
type Postpone struct {
	Prefix []int // the chosen thread of each replayed decision
	Thread int
	step   int
}

func (p *Postpone) Name() string {
	return fmt.Sprintf("postpone thread %d after %d decisions", p.Thread, len(p.Prefix))
}

// Pick implements Policy.
func (p *Postpone) Pick(pt Point, runnable []int) (int, error) {
	p.step++
	if p.step <= len(p.Prefix) {
		want := p.Prefix[p.step-1]
		for _, t := range runnable {
			if t == want {
				return t, nil
			}
		}
	}
	// Round robin among the others; Thread only when nothing else can run.
	var others []int
	for _, t := range runnable {
		if t != p.Thread {
			others = append(others, t)
		}
	}
	if len(others) == 0 {
		return runnable[0], nil
	}
	return RoundRobin{}.Pick(pt, others)
}

// lockCalls are the calls after which a thread holds a lock or has passed
// an ordering point worth reversing.
var lockCalls = map[string]bool{"pthread_mutex_lock": true, "pthread_mutex_trylock": true,
	"pthread_mutex_timedlock": true, "pthread_rwlock_rdlock": true, "pthread_rwlock_wrlock": true,
	"pthread_spin_lock": true, "sem_wait": true, "pthread_cond_wait": true, "pthread_cond_timedwait": true}

// Reversals derives up to max Postpone schedules from a trace: for each
// lock acquisition (first the ones at distinct places), postpone the
// acquiring thread from the decision that last chose it before the
// acquisition.
func Reversals(t *Trace, max int) []*Postpone {
	var out []*Postpone
	seen := map[string]bool{}
	var later []*Postpone
	for i, ev := range t.Events {
		if ev.Thread < 0 || !lockCalls[ev.What] {
			continue
		}
		j := i - 1
		for j >= 0 && t.Events[j].Next != ev.Thread {
			j--
		}
		if j < 0 {
			continue
		}
		prefix := make([]int, j)
		for k := 0; k < j; k++ {
			prefix[k] = t.Events[k].Next
		}
		p := &Postpone{Prefix: prefix, Thread: ev.Thread}
		key := fmt.Sprintf("%d@%s", ev.Thread, ev.Loc)
		if seen[key] {
			later = append(later, p)
			continue
		}
		seen[key] = true
		out = append(out, p)
	}
	out = append(out, later...)
	if len(out) > max {
		out = out[:max]
	}
	return out
}
