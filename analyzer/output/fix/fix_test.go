package fix

import (
	"strings"
	"testing"
)

func TestCodeStripsCommentsOutsideLiterals(t *testing.T) {
	for in, want := range map[string]string{
		"\tx++; // count":              "x++;",
		`printf("a // b\n"); // c`:     `printf("a // b\n");`,
		`c = '/'; // slash`:            `c = '/';`,
		`s = "say \"//\" twice"; // q`: `s = "say \"//\" twice";`,
		"   // only a comment":         "",
		"int x = 1;":                   "int x = 1;",
		"x = 1; /* one */":             "x = 1;",
		"x = 1; /* opens":              "x = 1;",
		"x = /* one */ 1;":             "x = /* one */ 1;",
		`s = "/* no */";`:              `s = "/* no */";`,
	} {
		if got := code(in); got != want {
			t.Errorf("code(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWrappable(t *testing.T) {
	src := strings.Split(`void f(void) {
	a = 1;
	if (x)
		b = 2;
	return c;
	d = g(e,
	      h);
	for (;;) {
		i++; // ok
	}
}`, "\n")
	for line, want := range map[int]bool{2: true, 4: false, 5: false, 6: false, 7: false, 9: true, 10: false} {
		if got := wrappable(src, line); got != want {
			t.Errorf("wrappable(line %d: %q) = %v, want %v", line, src[line-1], got, want)
		}
	}
}

func TestJoinAfterStaysInTheBlock(t *testing.T) {
	src := strings.Split(`int main(void) {
	use(r);
	other();
	pthread_join(t, NULL);
	if (x) {
		use(r);
	}
	pthread_join(u, NULL);
}`, "\n")
	if got := joinAfter(src, 2, joinCall.MatchString); got != 4 {
		t.Errorf("join after line 2 at %d, want 4", got)
	}
	if got := joinAfter(src, 6, joinCall.MatchString); got != 0 {
		t.Errorf("join after line 6 (inside an if) at %d, want none", got)
	}
}

// Apply changes the lines and refuses a file whose lines moved; Diff is
// a hunk patch accepts, with the line counts right.
func TestApplyAndDiff(t *testing.T) {
	src := "a\nb\nc\nd\ne\n"
	f := Fix{Edits: []Edit{{File: "x.c", Line: 3, Old: []string{"c"}, New: []string{"lock", "c", "unlock"}}}}
	got, err := f.Apply("x.c", []byte(src))
	if err != nil || string(got) != "a\nb\nlock\nc\nunlock\nd\ne\n" {
		t.Fatalf("Apply: %q, %v", got, err)
	}
	if _, err := f.Apply("x.c", []byte("a\nb\nX\nd\n")); err == nil {
		t.Error("Apply changed a line that is no longer the one analyzed")
	}
	d, err := f.Diff("", func(string) ([]byte, error) { return []byte(src), nil })
	want := "--- x.c\n+++ x.c\n@@ -1,5 +1,7 @@\n a\n b\n-c\n+lock\n+c\n+unlock\n d\n e\n"
	if err != nil || d != want {
		t.Errorf("Diff:\n%s\nwant:\n%s", d, want)
	}
}

func TestAtomicNeedsAScalarDeclaredOnce(t *testing.T) {
	files := map[string]string{
		"a.c": "static volatile unsigned long hits = 0; // counted\nstruct s big;\nint *ptr;\n",
		"b.c": "long twice;\n",
		"c.c": "static long twice;\n",
	}
	read := func(p string) ([]byte, error) { return []byte(files[p]), nil }
	srcs := []string{"a.c", "b.c", "c.c"}
	fs := atomicFixes(Race{Object: "hits", Global: true, Sources: srcs}, read)
	if len(fs) != 1 || fs[0].Edits[0].New[0] != "static volatile _Atomic unsigned long hits = 0; // counted" {
		t.Errorf("hits: %+v", fs)
	}
	for _, name := range []string{"big", "ptr", "twice"} {
		if fs := atomicFixes(Race{Object: name, Global: true, Sources: srcs}, read); len(fs) != 0 {
			t.Errorf("%s: proposed %+v", name, fs)
		}
	}
}

// A write through p after p was published: the publish moves below the
// stores through p that follow it, and the global becomes _Atomic.
func TestPublishAfterFilling(t *testing.T) {
	src := "struct s *volatile g;\n" +
		"void w(void) {\n" +
		"\tstruct s *p = malloc(8);\n" +
		"\tg = p;\n" +
		"\tp->a = 1;\n" +
		"\tp->b = 2;\n" +
		"\tdone();\n" +
		"}\n"
	read := func(string) ([]byte, error) { return []byte(src), nil }
	r := Race{Object: "heap object", Sources: []string{"x.c"},
		A: Access{File: "x.c", Line: 5, Kind: "write", Function: "w"}, B: Access{File: "x.c", Line: 9, Kind: "read"}}
	fs := publishFixes(r, read)
	if len(fs) != 1 {
		t.Fatalf("fixes: %+v", fs)
	}
	got, err := fs[0].Apply("x.c", []byte(src))
	want := "struct s *volatile _Atomic g;\nvoid w(void) {\n\tstruct s *p = malloc(8);\n\tp->a = 1;\n\tp->b = 2;\n\tg = p;\n\tdone();\n}\n"
	if err != nil || string(got) != want {
		t.Errorf("applied:\n%s\nwant:\n%s (%v)", got, want, err)
	}
}

func TestMapLine(t *testing.T) {
	f := Fix{Edits: []Edit{
		{File: "x.c", Line: 3, Old: []string{"int a;"}, New: []string{"_Atomic int a;"}},
		{File: "x.c", Line: 10, Old: []string{"use(a);", "join(t);"}, New: []string{"join(t);", "use(a);"}},
		{File: "x.c", Line: 20, Old: []string{"a++;"}, New: []string{"lock();", "a++;", "unlock();"}},
	}}
	for line, want := range map[int]int{1: 1, 3: 3, 5: 5, 10: 11, 11: 10, 15: 15, 20: 21, 25: 27} {
		if got := f.MapLine("x.c", line); got != want {
			t.Errorf("line %d -> %d, want %d", line, got, want)
		}
	}
	if got := f.MapLine("y.c", 20); got != 20 {
		t.Errorf("another file's line moved: %d", got)
	}
}

func TestLiterals(t *testing.T) {
	line := `printf("hits %ld '\"hits\"'\n", hits, 'h');`
	if got, want := stripLiterals(line), `printf("", hits, '');`; got != want {
		t.Errorf("stripLiterals = %q, want %q", got, want)
	}
	up := outsideLiterals(line, strings.ToUpper)
	if want := `PRINTF("hits %ld '\"hits\"'\n", HITS, 'h');`; up != want {
		t.Errorf("outsideLiterals = %q, want %q", up, want)
	}
}

// Edits whose contexts touch make one hunk, which patch applies.
func TestDiffMergesCloseEdits(t *testing.T) {
	src := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n"
	f := Fix{Edits: []Edit{
		{File: "x.c", Line: 2, Old: []string{"2"}, New: []string{"2", "2b"}},
		{File: "x.c", Line: 5, Old: []string{"5"}, New: []string{"five"}},
		{File: "x.c", Line: 14, Old: []string{"14"}, New: nil},
	}}
	d, err := f.Diff("", func(string) ([]byte, error) { return []byte(src), nil })
	want := "--- x.c\n+++ x.c\n" +
		"@@ -1,8 +1,9 @@\n 1\n-2\n+2\n+2b\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n" +
		"@@ -11,6 +12,5 @@\n 11\n 12\n 13\n-14\n 15\n 16\n"
	if err != nil || d != want {
		t.Errorf("Diff:\n%s\nwant:\n%s", d, want)
	}
}

// TestRegionSpansAReadComputeWrite widens a lock fix from one access to
// the same function's other accesses of the object that lack the lock,
// over whole statements of one block: straight-line code, comments, and
// an if or a loop taken whole.
func TestRegionSpansAReadComputeWrite(t *testing.T) {
	src := strings.Split(`void bonus(void) {
	long seen = balance;
	long extra = seen > 0 ? 5 : 0;
	/* earned */
	balance = seen + extra;
	if (x)
		balance = 0;
	log(balance);
	for (;;) {
		if (balance > 3)
			return;
	}
	if (y) {
		balance = 1;
	} else {
		balance = 2;
	}
}`, "\n")
	bare := Access{File: "a.c", Line: 2, Function: "bonus"}
	at := func(line int, locks ...string) Access {
		return Access{File: "a.c", Line: line, Function: "bonus", Locks: locks}
	}
	for _, c := range []struct {
		others      []Access
		first, last int
	}{
		{[]Access{at(5)}, 2, 5},                                     // the write back: read, compute, comment, write
		{[]Access{at(5, "bank")}, 2, 2},                             // the write holds the lock already
		{[]Access{at(7)}, 2, 7},                                     // the if taken whole
		{[]Access{at(5), at(8)}, 2, 8},                              // up to the log after the if
		{[]Access{at(10)}, 2, 2},                                    // a loop that returns: left out
		{[]Access{at(14)}, 2, 2},                                    // past the loop that returns
		{[]Access{{File: "b.c", Line: 5, Function: "bonus"}}, 2, 2}, // another file
	} {
		if first, last, why := region(src, bare, c.others, "bank", false); first != c.first || last != c.last {
			t.Errorf("region with %+v = %d-%d (%s), want %d-%d", c.others, first, last, why, c.first, c.last)
		}
	}
	for _, c := range []struct{ lo, hi, first, last int }{
		{7, 7, 6, 7},     // the body of a braceless if: with its header
		{14, 14, 14, 14}, // inside braces: the statement itself
		{16, 16, 16, 16},
		{13, 14, 13, 17},
	} {
		if first, last, why := block(src, c.lo, c.hi, false); first != c.first || last != c.last {
			t.Errorf("block(%d, %d) = %d-%d (%s), want %d-%d", c.lo, c.hi, first, last, why, c.first, c.last)
		}
	}
	if _, _, why := block(src, 10, 10, false); !strings.Contains(why, "return at line 11") {
		t.Errorf("block over a return: %q", why)
	}
}

func TestJoinsInFindsAJoinInTheCallee(t *testing.T) {
	src := `#include <pthread.h>
static void finish(struct ctx *c) { pthread_join(c->thread, NULL); }
static void stop(struct ctx *c);
static void log_it(struct ctx *c)
{
	printf("pthread_join(\n");
}
void Pool::drain() {
	for (auto &t : workers_)
		t.join();
}
`
	read := func(string) ([]byte, error) { return []byte(src), nil }
	for name, want := range map[string]bool{"finish": true, "stop": false, "log_it": false, "drain": true, "missing": false} {
		if got := joinsIn([]string{"a.cpp"}, read, name); got != want {
			t.Errorf("joinsIn(%s) = %v, want %v", name, got, want)
		}
	}
	for line, want := range map[string]bool{"\tt.join();": true, "\tpool->worker.join(); // done": true,
		"\tpthread_join(t, NULL);": true, "\tjoin(t);": false} {
		if got := joinCall.MatchString(line); got != want {
			t.Errorf("joinCall(%q) = %v, want %v", line, got, want)
		}
	}
}
