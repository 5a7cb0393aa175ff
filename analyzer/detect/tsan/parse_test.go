package tsan

import (
	"strings"
	"testing"
)

// A report in ThreadSanitizer's format: one race in C++ code with
// inlined frames, frames inside libstdc++ and libc, a mutex list and
// thread creation stacks; another warning kind between; a second race;
// and a third cut off after its first stack (a truncated log).
const report = `some program output
==================
WARNING: ThreadSanitizer: data race (pid=4321)
  Write of size 8 at 0x7b0400000018 by thread T2 (mutexes: write M9):
    #0 std::vector<int, std::allocator<int> >::push_back(int const&) /usr/include/c++/12/bits/stl_vector.h:1281:4 (shop+0x1a2b) (BuildId: 0123abcd)
    #1 Shop::add(int) /src/shop/shop.cc:42:9 (shop+0x1c00)
    #2 worker(void*) /src/shop/main.cc:17 (shop+0x1d00)

  Previous read of size 8 at 0x7b0400000018 by main thread:
    #0 memcpy <null> (libtsan.so.2+0x6400)
    #1 Shop::total() const /src/shop/shop.cc:57:20 (shop+0x1e00)
    #2 main /src/shop/main.cc:30:3 (shop+0x1f00)

  Location is heap block of size 24 at 0x7b0400000000 allocated by main thread:
    #0 operator new(unsigned long) <null> (libtsan.so.2+0x8e00)
    #1 main /src/shop/main.cc:25:14 (shop+0x2000)

  Mutex M9 (0x7b0c00000000) created at:
    #0 pthread_mutex_init <null> (libtsan.so.2+0x4000)

  Thread T2 (tid=4324, running) created by main thread at:
    #0 pthread_create <null> (libtsan.so.2+0x5000)
    #1 main /src/shop/main.cc:28:3 (shop+0x2100)

SUMMARY: ThreadSanitizer: data race /usr/include/c++/12/bits/stl_vector.h:1281:4 in std::vector<int, std::allocator<int> >::push_back(int const&)
==================
==================
WARNING: ThreadSanitizer: lock-order-inversion (potential deadlock) (pid=4321)
  Cycle in lock order graph: M1 => M2 => M1
==================
==================
WARNING: ThreadSanitizer: data race (pid=4321)
  Atomic write of size 4 at 0x55d0 by thread T1:
    #0 flag_set /src/shop/flag.c:8:5 (shop+0x3000)
  Previous read of size 4 at 0x55d0 by thread T3:
    #0 flag_get /src/shop/flag.c:12:10 (shop+0x3100)
  Location is global 'flag' of size 4 at 0x55d0 (shop+0x55d0)
SUMMARY: ThreadSanitizer: data race /src/shop/flag.c:8:5 in flag_set
==================
WARNING: ThreadSanitizer: data race (pid=4321)
  Read of size 4 at 0x55d4 by thread T1:
    #0 flag_get /src/shop/flag.c:12:10 (shop+0x3100)
`

func TestParseReport(t *testing.T) {
	ws, err := Parse(strings.NewReader(report), "ci.log", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 3 {
		t.Fatalf("%d warnings, want the 3 data races (not the inversion)", len(ws))
	}
	w := ws[0]
	if w.Index != 5 || w.Line != 3 || w.Truncated || len(w.Accesses) != 2 {
		t.Fatalf("first warning %+v", w)
	}
	a, b := w.Accesses[0], w.Accesses[1]
	if !a.Write || a.Size != 8 || a.Thread != "T2" || b.Write || b.Thread != "main thread" {
		t.Errorf("accesses %+v / %+v", a, b)
	}
	if len(a.Frames) != 3 || a.Frames[0].Func != "std::vector<int, std::allocator<int> >::push_back(int const&)" ||
		a.Frames[0].File != "/usr/include/c++/12/bits/stl_vector.h" || a.Frames[0].Line != 1281 || a.Frames[0].Col != 4 ||
		a.Frames[0].Module != "shop" {
		t.Errorf("frames of the write: %+v", a.Frames)
	}
	if f := a.Frames[2]; f.Func != "worker(void*)" || f.Line != 17 || f.Col != 0 {
		t.Errorf("a frame without a column: %+v", f)
	}
	if f := b.Frames[0]; f.Func != "memcpy" || f.File != "" || f.Module != "libtsan.so.2" {
		t.Errorf("a frame inside the runtime: %+v", f)
	}
	if w.Location != "heap block of size 24" {
		t.Errorf("location %q", w.Location)
	}
	if !ws[1].Accesses[0].Atomic || ws[1].Index != 6 || ws[1].Location != "global 'flag' of size 4" {
		t.Errorf("second warning %+v", ws[1])
	}
	if !ws[2].Truncated || ws[2].Index != 7 {
		t.Errorf("a warning cut short is not marked so: %+v", ws[2])
	}
}

// Text that holds no data race warning is refused with a reason, rather
// than read as "no races".
func TestParseRefusesOtherText(t *testing.T) {
	for _, text := range []string{"", "hello\nworld\n", "WARNING: ThreadSanitizer: lock-order-inversion\n", "\x00\x01\x02garbage"} {
		if _, err := Parse(strings.NewReader(text), "x.log", 1); err == nil || !strings.Contains(err.Error(), "not a ThreadSanitizer report") {
			t.Errorf("%q: error %v", text, err)
		}
	}
}
