package analyzer_test

import (
	"bytes"
	"context"
	"runtime"
	"slices"
	"testing"

	"augur/analyzer"
	"augur/analyzer/detect/race"
)

// goroutineID is the number runtime.Stack gives the calling goroutine.
func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	return string(bytes.Fields(buf)[1])
}

// The exploration of inputs runs beside detection's plan on a second
// worker, and the analysis finds what it finds when the two run in turn
// on one: the same paths, races and schedules. The observer still hears
// every progress report on the goroutine that called Analyze.
func TestInputsBesideFindTheSame(t *testing.T) {
	for _, path := range []string{"../testdata/recall/stdin_dash.c", "../testdata/recall/input_mode.c", "../testdata/recall/input_two_values.c"} {
		var got [2]*analyzer.Result
		for k, workers := range []int{1, 2} {
			opts := corpusOptions(t, path)
			opts.DetectOnly, opts.Workers = true, workers
			caller := goroutineID()
			var stages []string
			res, err := analyzer.Analyze(context.Background(), mustLoad(t, path), opts, analyzer.Observer{
				Progress: func(stage string, done, total int) {
					if id := goroutineID(); id != caller {
						t.Errorf("%s: progress %s %d/%d on goroutine %s, not the caller's %s", path, stage, done, total, id, caller)
					}
					if len(stages) == 0 || stages[len(stages)-1] != stage {
						stages = append(stages, stage)
					}
				}})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(stages, "exploring") || !slices.Contains(stages, "detecting") {
				t.Errorf("%s, %d workers: progress of %q", path, workers, stages)
			}
			got[k] = res
		}
		one, two := got[0], got[1]
		ids := func(r *analyzer.Result) []string {
			var out []string
			for _, x := range r.Races {
				out = append(out, x.ID+" "+string(x.Technique))
			}
			return out
		}
		if !slices.Equal(ids(one), ids(two)) {
			t.Errorf("%s: races %q with one worker, %q with two", path, ids(one), ids(two))
		}
		if len(one.Races) == 0 {
			t.Errorf("%s: no race found", path)
		}
		if a, b := one.Exploration.Stats.Paths, two.Exploration.Stats.Paths; a != b {
			t.Errorf("%s: %d paths with one worker, %d with two", path, a, b)
		}
		d1, d2 := one.Detection, two.Detection
		if d1.Schedules != d2.Schedules || d1.Instructions != d2.Instructions || d1.Runs[race.ByInputs] != d2.Runs[race.ByInputs] {
			t.Errorf("%s: %d schedules, %d instructions, %d on inputs with one worker; %d, %d, %d with two", path,
				d1.Schedules, d1.Instructions, d1.Runs[race.ByInputs], d2.Schedules, d2.Instructions, d2.Runs[race.ByInputs])
		}
	}
}
