package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// AUGUR_HEAPPROFILE leaves a heap profile (gzipped protobuf) even for a
// run shorter than one sample, and nothing for an empty setting.
func TestHeapProfileIsWritten(t *testing.T) {
	file := filepath.Join(t.TempDir(), "heap.out")
	watchHeap(file)()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		t.Errorf("heap.out is not a gzipped profile: % x", data[:min(len(data), 8)])
	}
	watchHeap("")()
}
