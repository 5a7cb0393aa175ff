package evidence_test

import (
	"io"
	"testing"

	"augur/analyzer/exec/vm"
	"augur/analyzer/output/evidence"
)

// FuzzDecode feeds the evidence decoder arbitrary bytes: it must refuse
// what it cannot use with an error, never panic, and whatever it accepts
// must render (the header and the output table) without panicking.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(seedEvidence))
	f.Add([]byte(`{"version":1}`))
	f.Add([]byte(`{"schedule":{"events":[{"period":2,"repeat":1}]}}`))
	f.Add([]byte(`[]`))
	if _, err := evidence.Decode([]byte(seedEvidence)); err != nil {
		f.Fatalf("the first seed must decode, so the fuzzer starts from evidence that renders: %v", err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := evidence.Decode(data)
		if err != nil {
			return
		}
		evidence.RenderOutputDifference(io.Discard, ev, evidence.Markdown)
		tr := &evidence.Transcript{Result: &vm.Result{Term: &vm.Termination{Kind: vm.TermExit}}}
		tr.Render(io.Discard, ev, "/", evidence.Text)
		ev.Schedule.Events()
	})
}

const seedEvidence = `{"version":1,"program":{"files":["/p.c"],"hash":"x"},"inputs":{"argv":["p"],"max_instructions":0},
		"category":"output-differs","order":"alternate","schedule":{"policy":"round-robin","seed":1,
		"events":[{"thread":0,"loc":"p.c:3:1","what":"pthread_create","insts":5,"next":1,"period":1,"repeat":3}]},
		"actions":[{"at":{"Thread":1,"Count":3,"Loc":0},"do":"yield"}],"points":[{"Thread":1,"Count":2,"Loc":0},{"Thread":0,"Count":9,"Loc":0}],
		"expected":{"termination":"exit","stdout":"a\n","stderr":"","other_stdout":"b\n"},
		"memory_model":"weak","weak_reads":[{"thread":1,"count":4,"value":2,"object":"x","read_at":"p.c:4:2","read":{"thread":-1,"seq":1,"value":0},"missed":[]}]}`
