package fix

import (
	"strings"
	"testing"
)

func TestLockedInReadsEachWayOfTakingAMutex(t *testing.T) {
	for _, c := range []struct {
		line, expr string
		style      lockStyle
		guard      string
	}{
		{"pthread_mutex_lock(&a->lock);", "a->lock", pthreadLock, ""},
		{"pthread_mutex_lock( &buckets[h % N].lock );", "buckets[h % N].lock", pthreadLock, ""},
		{"pthread_mutex_lock(j->m);", "*j->m", pthreadLock, ""},
		{"std::lock_guard<std::mutex> guard(mu_);", "mu_", guardLock, "std::lock_guard<std::mutex>"},
		{"std::unique_lock<std::mutex> lk{c->mu};", "c->mu", guardLock, "std::unique_lock<std::mutex>"},
		{"std::scoped_lock g(this->mu_);", "this->mu_", guardLock, "std::scoped_lock"},
		{"acct.mu.lock();", "acct.mu", methodLock, ""},
	} {
		m, ok := lockedIn(c.line)
		if !ok || m.expr != c.expr || m.style != c.style || m.guard != c.guard {
			t.Errorf("lockedIn(%q) = %+v, %v; want %q style %d guard %q", c.line, m, ok, c.expr, c.style, c.guard)
		}
	}
	for _, line := range []string{"std::unique_lock<std::mutex> lk(mu, std::defer_lock);", "x = lock;", "pthread_mutex_lock(&m"} {
		if m, ok := lockedIn(line); ok {
			t.Errorf("lockedIn(%q) = %+v, want nothing", line, m)
		}
	}
}

func TestTranslateRebuildsTheMutexOnTheRacingBase(t *testing.T) {
	for _, c := range []struct {
		m, g, b   string
		same, cxx bool
		want      string // "" when it is not reachable
	}{
		{"a->lock", "a->balance", "acct->balance", false, false, "acct->lock"},
		{"a->lock", "a->balance", "acct.balance", false, false, "acct.lock"},
		{"a -> lock", "a->balance", "accts[i]->balance", false, false, "accts[i]->lock"},
		{"a->bank->lock", "a->balance", "acct->balance", false, false, "acct->bank->lock"},
		{"a->bank->lock", "a->balance", "acct.balance", false, false, "acct.bank->lock"},
		{"buckets[h].lock", "buckets[h].count", "buckets[k].count", false, false, "buckets[k].lock"},
		{"locks[i]", "counts[i]", "counts[j + 1]", false, false, "locks[j+1]"},
		{"mu_", "balance_", "balance_", false, true, "mu_"},
		{"this->mu_", "balance_", "other->balance_", false, true, "other->mu_"},
		{"mu", "hits", "hits", false, false, ""}, // C: a local of the guarded function
		{"mu", "hits", "hits", true, false, "mu"},
		{"*a->lock", "a->total", "total", false, false, ""},
		{"m", "x", "", false, false, ""},
	} {
		got, ok := translate(c.m, c.g, c.b, c.same, c.cxx)
		if !ok {
			got = ""
		}
		if got != c.want {
			t.Errorf("translate(%q, %q, %q, same %v, C++ %v) = %q, want %q", c.m, c.g, c.b, c.same, c.cxx, got, c.want)
		}
	}
}

func TestWrapFollowsTheGuardedStyle(t *testing.T) {
	src := strings.Split(`void charge() {
	long seen = balance_;
	balance_ = seen - 5;
}
void count() {
	long seen = hits_;
	hits_ = seen + 1;
	log(seen);
}`, "\n")
	guard := mutex{expr: "mu_", style: guardLock, guard: "std::lock_guard<std::mutex>"}
	want := "\t{\n\t\tstd::lock_guard<std::mutex> guard(mu_);\n\t\tlong seen = balance_;\n\t\tbalance_ = seen - 5;\n\t}"
	if got := strings.Join(guard.wrap(src, "a.cpp", 2, 3).New, "\n"); got != want {
		t.Errorf("guard in a scope:\n%s\nwant:\n%s", got, want)
	}
	// seen is used after the region: a scope would hide it, so the guard
	// holds the mutex to the end of the block (line 8), and not explicit
	// calls, which a return in the region would leave held.
	want = "\tstd::lock_guard<std::mutex> guard(mu_);\n\tlong seen = hits_;\n\thits_ = seen + 1;"
	if got := strings.Join(guard.wrap(src, "a.cpp", 6, 7).New, "\n"); got != want {
		t.Errorf("guard to the block's end:\n%s\nwant:\n%s", got, want)
	}
	if style, held := guard.span(src, 6, 7); style != guardToEnd || held != 8 {
		t.Errorf("span = %v, %d; want the guard to the block's end, line 8", style, held)
	}
	if _, held := guard.span(src, 2, 3); held != 3 {
		t.Errorf("span of a scoped region ends at %d, want 3", held)
	}
	pthread := mutex{expr: "acct->lock", style: pthreadLock}
	want = "\tpthread_mutex_lock(&acct->lock);\n\tlong seen = balance_;\n\tpthread_mutex_unlock(&acct->lock);"
	if got := strings.Join(pthread.wrap(src, "a.c", 2, 2).New, "\n"); got != want {
		t.Errorf("pthread:\n%s\nwant:\n%s", got, want)
	}
}

func TestBlockingCallRefusesTheRegion(t *testing.T) {
	src := strings.Split("x = a->n;\nusleep(100); // wait\na->n = x + 1;\nprintf(\"read(\");", "\n")
	if got := blockingCall(src, 1, 3); !strings.Contains(got, "usleep at line 2") {
		t.Errorf("blockingCall = %q, want usleep at line 2", got)
	}
	if got := blockingCall(src, 3, 4); got != "" {
		t.Errorf("blockingCall over a literal = %q, want none", got)
	}
}

func TestRMWRegionBecomesOneAtomicUpdate(t *testing.T) {
	src := `#include <stdio.h>
void charge(struct account *acct) {
	long seen = acct->balance;
	long fee = seen > 50 ? 5 : 0;
	acct->balance = seen - fee;
}
void add(void) {
	long n = total;
	total = n + step;
}
`
	read := func(string) ([]byte, error) { return []byte(src), nil }
	at := func(line, col int, kind string) Access {
		return Access{File: "a.c", Line: line, Col: col, Function: "f", Kind: kind}
	}
	e, how, ok := rmwRegion(at(3, 14, "read"), at(5, 16, "write"), false, read)
	want := "\tlong seen = acct->balance;\n\tfor (;;) {\n\t\tlong fee = seen > 50 ? 5 : 0;\n" +
		"\t\tif (atomic_compare_exchange_weak(&acct->balance, &seen, seen - fee))\n\t\t\tbreak;\n\t}"
	if got := strings.Join(e.New, "\n"); !ok || got != want || e.Line != 3 || len(e.Old) != 3 {
		t.Errorf("compare-exchange (%s, %v) at %d over %d lines:\n%s\nwant:\n%s", how, ok, e.Line, len(e.Old), got, want)
	}
	e, how, ok = rmwRegion(at(8, 11, "read"), at(9, 8, "write"), true, read)
	if got := strings.Join(e.New, "\n"); !ok || got != "\tlong n = total.fetch_add(step);" || how != "fetch_add" {
		t.Errorf("fetch_add (%s, %v): %q", how, ok, got)
	}
	if _, _, ok := rmwRegion(at(3, 14, "read"), at(9, 8, "write"), false, read); ok {
		t.Error("a read and a write of different variables made a region")
	}
}
