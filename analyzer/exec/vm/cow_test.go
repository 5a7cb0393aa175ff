package vm

import (
	"bytes"
	"runtime"
	"sync"
	"testing"

	"augur/analyzer/frontend/ir"
)

// A big object shared with forks is copied page by page: each fork that
// writes it sees its own write and the object as it was elsewhere, the
// original is unchanged, and a copy of a copy (frozen from a mapping)
// holds both generations' writes. Collections in between unmap what no
// object holds without losing what one does.
func TestBigObjectsCopyByThePage(t *testing.T) {
	const size = 4 << 20
	m := &Memory{gen: newGen(), nextID: 1}
	o := m.alloc(ObjHeap, size, "big", 0, 0)
	want := make([]byte, size)
	for i := range want {
		want[i] = byte(i * 7)
	}
	copy(o.bytes, want)
	if err := m.Write(ir.Addr(o.ID, 0), want); err != nil {
		t.Fatal(err)
	}
	snap := m.Fork()
	forks := make([]*Memory, 4)
	for k := range forks { // a fork mutates its parent: forks are made in turn
		forks[k] = snap.Fork()
	}
	var wg sync.WaitGroup
	for k, c := range forks { // and written in parallel
		wg.Add(1)
		go func() {
			defer wg.Done()
			off := uint64(k)<<20 + 3
			if err := c.Write(ir.Addr(o.ID, off), []byte{0xAA, 0xBB}); err != nil {
				t.Error(err)
				return
			}
			co := c.Object(o.ID)
			if co.mapped == nil {
				t.Errorf("fork %d: a %d-byte object was copied whole", k, size)
			}
			exp := bytes.Clone(want)
			exp[off], exp[off+1] = 0xAA, 0xBB
			runtime.GC()
			if !bytes.Equal(co.bytes, exp) {
				t.Errorf("fork %d holds other bytes than the snapshot's with its write", k)
			}
			// A fork of the fork, written, freezes the mapped copy.
			g := c.Fork()
			if err := g.Write(ir.Addr(o.ID, 5), []byte{0xCC}); err != nil {
				t.Error(err)
				return
			}
			exp[5] = 0xCC
			c, forks[k] = nil, nil
			runtime.GC()
			if !bytes.Equal(g.Object(o.ID).bytes, exp) {
				t.Errorf("fork %d's fork lost a write", k)
			}
			g.safePoint()
		}()
	}
	wg.Wait()
	if !bytes.Equal(m.Object(o.ID).bytes, want) || !bytes.Equal(snap.Object(o.ID).bytes, want) {
		t.Error("the forks' writes reached the object they copied")
	}
	// Freeing a shared big object copies nothing.
	f := snap.Fork()
	fo := f.freeing(f.Object(o.ID))
	if fo.bytes != nil || fo.mapped != nil || snap.Object(o.ID).bytes == nil {
		t.Error("freeing a shared object in a fork kept bytes or dropped the original's")
	}
}

// Small objects are still copied whole, on the Go heap.
func TestSmallObjectsCopyWhole(t *testing.T) {
	m := &Memory{gen: newGen(), nextID: 1}
	o := m.alloc(ObjHeap, 4096, "small", 0, 0)
	c := m.Fork()
	if err := c.Write(ir.Addr(o.ID, 0), []byte{1}); err != nil {
		t.Fatal(err)
	}
	if c.Object(o.ID).mapped != nil {
		t.Error("a 4 KiB object was mapped")
	}
}
