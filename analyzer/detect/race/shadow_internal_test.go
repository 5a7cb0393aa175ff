package race

import (
	"testing"
	"unsafe"
)

// The costs the memory budget counts for shadow memory are the sizes of
// what holds it, so that a field added to a cell, a chunk or a read is
// counted too.
func TestShadowCostsAreTheSizes(t *testing.T) {
	for _, c := range []struct {
		what       string
		cost, size uintptr
	}{
		{"cell", cellBytes, unsafe.Sizeof(hot{}) + unsafe.Sizeof(sites{})},
		{"chunk", chunkBytes, unsafe.Sizeof(chunk{})},
		{"object shadow with its page slot", shadowBytes, unsafe.Sizeof(objShadow{}) + unsafe.Sizeof((*objShadow)(nil))},
		{"list of reads (its slot and free index)", listBytes, unsafe.Sizeof([]sharedRead{}) + unsafe.Sizeof(uint64(0))},
		{"read in a list", readBytes, unsafe.Sizeof(sharedRead{})},
	} {
		if c.cost != c.size {
			t.Errorf("a %s is counted as %d bytes; it holds %d", c.what, c.cost, c.size)
		}
	}
}
