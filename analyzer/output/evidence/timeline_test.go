package evidence

import (
	"strings"
	"testing"
)

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

// A long replay's page keeps every step it recorded, those far from the
// race folded, so the racing accesses are in view first and a click shows
// the rest; the SVG, which cannot unfold, leaves them out and says so.
func TestFarStepsFoldInThePageAndAreLeftOutOfThePicture(t *testing.T) {
	tr := &Transcript{Starts: map[int]string{0: "main", 1: "worker"}}
	for i := 0; i < 900; i++ {
		tr.Events = append(tr.Events, Event{Thread: i % 2, Op: "locks", Step: i + 1})
	}
	tr.Events = append(tr.Events, Event{Thread: 1, Op: "creates thread 2", Step: 901},
		Event{Thread: 0, Op: "writes", Racing: 1, Step: 902}, Event{Thread: 1, Op: "reads", Racing: 2, Step: 903})
	ev := &Evidence{Category: "spec-violated", Order: "main first"}
	ev.Race.Object = "count"
	var page, picture strings.Builder
	if err := tr.Timeline(&page, ev, "/src", HTML); err != nil {
		t.Fatal(err)
	}
	if err := tr.Timeline(&picture, ev, "/src", SVG); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	if strings.Contains(html, "left out") {
		t.Errorf("the page left steps out")
	}
	fold := strings.Index(html, "steps of threads 0 and 1: locks")
	racing := strings.Index(html, "racing access 1")
	if fold < 0 || racing < fold {
		t.Errorf("the far steps are not folded before the race (fold at %d, race at %d)", fold, racing)
	}
	if got := strings.Count(html, "<td class=\"step\">"); got != 903 {
		t.Errorf("the page has %d steps, want 903", got)
	}
	if !strings.Contains(picture.String(), "steps far from the race left out") {
		t.Errorf("the picture does not say it left steps out")
	}
}

// A replay that records more than maxEvents drops the oldest but keeps
// the racing accesses and numbers what it keeps by its step.
func TestMakeRoomKeepsTheRacingAccesses(t *testing.T) {
	var evs []Event
	k := &marker{events: &evs}
	for i := 0; i < maxEvents; i++ {
		e := Event{Op: "locks", Step: i + 1}
		if i == 10 {
			e.Racing = 1
		}
		evs = append(evs, e)
	}
	k.makeRoom()
	if len(evs) != maxEvents/2+1 || evs[0].Racing != 1 || evs[1].Step != maxEvents/2+1 {
		t.Fatalf("kept %d events, the first %+v, the second %+v", len(evs), evs[0], evs[1])
	}
	tr := &Transcript{Events: evs}
	rows, elided := (&renderer{src: sourceLines{}}).rows(tr, maxPageRows)
	if elided != maxEvents/2-1 || rows[1].step != maxEvents/2+1 {
		t.Errorf("elided %d, second row's step %d", elided, rows[1].step)
	}
}
