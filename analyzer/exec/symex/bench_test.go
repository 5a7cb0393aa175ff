package symex_test

import (
	"fmt"
	"testing"
	"time"

	"augur/analyzer/exec/symex"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/load/loadtest"
)

// BenchmarkMaze reports paths and solver queries per second and the
// solver's cache hit rate on a maze walked by symbolic moves.
func BenchmarkMaze(b *testing.B) {
	prog := loadtest.Program(b, b.TempDir(), "../../../testdata/bench/maze.c")
	res, err := symex.Explore(prog, symex.Options{Run: vm.Config{Args: []string{"maze"}}, Searcher: "dfs",
		MaxPaths: 3000, Timeout: 60 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	st := res.Stats
	secs := st.Elapsed.Seconds()
	hits := st.CacheHits + st.ModelHits
	fmt.Printf("maze: %d paths (%d failing, stopped by %q) in %.2fs: %.0f paths/s, %d queries (%.0f/s), %d reached Z3, cache hit rate %.0f%%\n",
		st.Paths, len(res.Failures), st.StoppedBy, secs, float64(st.Paths)/secs, st.Queries, float64(st.Queries)/secs,
		st.Z3Calls, 100*float64(hits)/float64(max(st.Queries, 1)))
	if len(res.Failures) == 0 {
		b.Error("the maze was not solved")
	}
	b.ReportMetric(float64(st.Paths)/secs, "paths/s")
	b.ReportMetric(float64(st.Queries)/secs, "queries/s")
	b.ReportMetric(0, "ns/op")
	for i := 0; i < b.N; i++ {
	}
}

// BenchmarkLiveStates measures the heap with at least 10,000 pending
// states of a program holding 64 KiB of data, against the 10,000 x 64 KiB a
// copy per state would take.
func BenchmarkLiveStates(b *testing.B) {
	prog := loadtest.Program(b, b.TempDir(), "../../../testdata/bench/forks.c")
	res, err := symex.Explore(prog, symex.Options{Run: vm.Config{Args: []string{"forks"}}, Searcher: "bfs",
		MaxPaths: 20000, Timeout: 120 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	st := res.Stats
	const programBytes = 64 * 1024
	copies := float64(st.PeakLive) * programBytes
	fmt.Printf("live states: peak %d pending states, heap %.1f MiB at the peak; a copy per state would need %.0f MiB: ratio %.3f (%d paths, %.2fs)\n",
		st.PeakLive, float64(st.PeakHeap)/(1<<20), copies/(1<<20), float64(st.PeakHeap)/copies, st.Paths, st.Elapsed.Seconds())
	if st.PeakLive < 8000 {
		b.Errorf("only %d live states", st.PeakLive)
	}
	b.ReportMetric(float64(st.PeakHeap)/copies, "heap/copies")
	b.ReportMetric(0, "ns/op")
	for i := 0; i < b.N; i++ {
	}
}
