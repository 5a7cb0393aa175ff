package evidence

import "testing"

func TestWithoutComment(t *testing.T) {
	for in, want := range map[string]string{
		`free(buf); // race: dfree spec-violated`: `free(buf);`,
		`printf("a // b\n", x); // note`:          `printf("a // b\n", x);`,
		`s = "\"//"; // x`:                        `s = "\"//";`,
		`x = 1;`:                                  `x = 1;`,
	} {
		if got := withoutComment(in); got != want {
			t.Errorf("withoutComment(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFirstDifference(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		want  Difference
		sideA string
		sideB string
	}{
		{"banner\ntask 7\ntask 8\n", "banner\ntask 8\ntask 7\n",
			Difference{Line: 2, A: "task 7", B: "task 8", Before: "banner"}, `line 2: "task 7"`, `line 2: "task 8"`},
		{"total 3\n", "total 3\nwarning\n",
			Difference{Line: 2, AEnded: true, B: "warning", Before: "total 3"}, "nothing from line 2 on", `line 2: "warning"`},
		{"", "x\n", Difference{Line: 1, AEnded: true, B: "x"}, "nothing from line 1 on", `line 1: "x"`},
		{"same\n", "same\n", Difference{}, "", ""},
	} {
		got := FirstDifference(c.a, c.b)
		if got != c.want {
			t.Errorf("FirstDifference(%q, %q) = %+v, want %+v", c.a, c.b, got, c.want)
		}
		if got.Line == 0 {
			continue
		}
		if a, b := got.Sides(); a != c.sideA || b != c.sideB {
			t.Errorf("Sides of %+v = %q, %q, want %q, %q", got, a, b, c.sideA, c.sideB)
		}
	}
}

func TestGroupsFoldUneventfulRuns(t *testing.T) {
	ev := func(thread int, op string) row { return row{Event: Event{Thread: thread, Op: op}} }
	rows := []row{ev(0, "creates thread 1")}
	for i := 0; i < 6; i++ {
		rows = append(rows, ev(1, "locks"), ev(2, "unlocks"))
	}
	rows = append(rows, ev(0, "frees the memory allocated at a.c:3"))
	rows = append(rows, ev(1, "unlocks"), ev(1, "locks")) // too short to fold
	rows = append(rows, row{Event: Event{Thread: 2, Op: "writes", Racing: 1}})
	gs := groups(rows)
	if len(gs) != 3 || gs[0].folded || !gs[1].folded || gs[2].folded {
		t.Fatalf("groups: %+v", gs)
	}
	if len(gs[1].rows) != 12 || len(gs[2].rows) != 4 {
		t.Errorf("folded %d rows, then showed %d", len(gs[1].rows), len(gs[2].rows))
	}
	if got, want := gs[1].summary(), "12 steps of threads 1 and 2: locks, unlocks (show them)"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}
