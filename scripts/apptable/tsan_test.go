package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A log of two reports in ThreadSanitizer's layout: a race between two
// program accesses, and one between a mutex's destroy and an unlock, whose
// first frames are the sanitizer's interceptors (no file). Then a report
// of another kind, which is not a race.
const tsanLog = `==================
WARNING: ThreadSanitizer: data race (pid=7)
  Write of size 4 at 0x7b04 by thread T1:
    #0 worker(void*, int) /src/app/pool.c:41:9 (app+0x10a) (BuildId: 12ab)
    #1 <null> <null> (libtsan.so.2+0x2f) (BuildId: 34cd)

  Previous read of size 4 at 0x7b04 by main thread:
    #0 main /src/app/main.c:77:12 (app+0x20b) (BuildId: 12ab)

SUMMARY: ThreadSanitizer: data race /src/app/pool.c:41:9 in worker
==================
WARNING: ThreadSanitizer: data race (pid=7)
  Write of size 1 at 0x7c08 by main thread:
    #0 pthread_mutex_destroy <null> (app+0x54) (BuildId: 12ab)
    #1 teardown /src/app/main.c:90:3 (app+0x30c) (BuildId: 12ab)

  Previous atomic read of size 1 at 0x7c08 by thread T2 (mutexes: write M0):
    #0 pthread_mutex_unlock <null> (app+0x71) (BuildId: 12ab)
    #1 submit /src/app/pool.c:60:3 (app+0x11c) (BuildId: 12ab)

SUMMARY: ThreadSanitizer: data race in pthread_mutex_destroy
==================
WARNING: ThreadSanitizer: thread leak (pid=7)
  Thread T3 (tid=9, finished) created by main thread at:
    #0 pthread_create <null> (app+0x53) (BuildId: 12ab)
    #1 main /src/app/main.c:70:2 (app+0x20a) (BuildId: 12ab)
`

func TestReadTSanLogPlacesLibraryAccessesAtTheirCall(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.tsan.1.7")
	if err := os.WriteFile(path, []byte(tsanLog), 0o644); err != nil {
		t.Fatal(err)
	}
	races, err := readTSanLog(path)
	if err != nil {
		t.Fatal(err)
	}
	plain := newPair(site{"pool.c", 41}, site{"main.c", 77})
	destroy := newPair(site{"main.c", 90}, site{"pool.c", 60})
	if len(races) != 2 || races[plain] == nil || races[destroy] == nil {
		t.Fatalf("races = %v, want %v and %v", keys(races), plain, destroy)
	}
	if r := races[plain]; r.mutexUse != [2]bool{} {
		t.Errorf("program accesses taken for library calls: %+v", r)
	}
	r := races[destroy]
	for i, s := range r.pair {
		want := map[string]string{"main.c": "teardown", "pool.c": "submit"}[s.file]
		use := s.file == "pool.c" // the unlock uses the mutex; the destroy does not
		if r.fn[i] != want || r.mutexUse[i] != use {
			t.Errorf("%v: function %q, use of a mutex %v; want %q, %v", s, r.fn[i], r.mutexUse[i], want, use)
		}
	}
}

// keys lists a log's races, for a failure's message.
func keys(m map[racePair]*tsanRace) string {
	var out []string
	for k := range m {
		out = append(out, k.String())
	}
	return strings.Join(out, "; ")
}

func TestAnotherCallMatchesOnlyTheLockBeforeTheUnlock(t *testing.T) {
	destroy := &tsanRace{pair: newPair(site{"main.c", 90}, site{"pool.c", 60})}
	for i, s := range destroy.pair {
		destroy.fn[i] = map[string]string{"main.c": "teardown", "pool.c": "submit"}[s.file]
		destroy.mutexUse[i] = s.file == "pool.c"
	}
	mine := func(fn string, line int) map[racePair]augurRace {
		p := newPair(site{"main.c", 90}, site{"pool.c", line})
		a := augurRace{pair: p}
		for i, s := range p {
			a.fn[i] = map[string]string{"main.c": "teardown", "pool.c": fn}[s.file]
		}
		return map[racePair]augurRace{p: a}
	}
	if !atAnotherCall(destroy, mine("submit", 55)) {
		t.Error("the lock of the same function (line 55) did not match the unlock's race (line 60)")
	}
	if atAnotherCall(destroy, mine("drain", 55)) {
		t.Error("a race in another function matched")
	}
	if atAnotherCall(destroy, mine("submit", 65)) {
		t.Error("a lock after the unlock matched")
	}
	plain := &tsanRace{pair: destroy.pair, fn: destroy.fn}
	if atAnotherCall(plain, mine("submit", 55)) {
		t.Error("a race between program accesses matched at another line")
	}
}
