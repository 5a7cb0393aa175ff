package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

// watchHeap writes a heap profile to file each time the live heap reaches
// a new high (by a tenth over the last written one), so that the file
// ends up holding the profile of the run's peak rather than of its end,
// when most of what mattered is freed (for the engineers:
// AUGUR_HEAPPROFILE=heap.out augur analyze ...; go tool pprof -sample_index
// inuse_space heap.out). It samples every 200 ms and returns a function
// that stops it; a run that ends before the first sample is written once
// at its end.
func watchHeap(file string) (stop func()) {
	if file == "" {
		return func() {}
	}
	runtime.MemProfileRate = 64 << 10
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		var written uint64
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				if written == 0 { // a run shorter than a sample still gets one
					if err := writeHeapProfile(file); err != nil {
						fmt.Fprintf(os.Stderr, "augur: AUGUR_HEAPPROFILE: %v\n", err)
					}
				}
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 {
				return
			}
			live := sample[0].Value.Uint64()
			if live <= written+written/10 {
				continue
			}
			if err := writeHeapProfile(file); err != nil {
				fmt.Fprintf(os.Stderr, "augur: AUGUR_HEAPPROFILE: %v\n", err)
				return
			}
			written = live
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// writeHeapProfile replaces file with the current heap profile.
func writeHeapProfile(file string) error {
	tmp := file + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, file)
}
