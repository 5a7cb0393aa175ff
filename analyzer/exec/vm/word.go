package vm

import (
	"math/bits"
	"unsafe"

	"augur/analyzer/frontend/ir"
)

// This file holds the word operations of exec's raw loads and stores. A
// raw access of 1, 2, 4 or 8 bytes runs as one 8-byte read (or read and
// write) at its offset, masked to its size (ir.CodeLoad's K): no switch
// on the size and no slice to bound. An 8-byte word at the last byte of
// an object reaches 7 bytes past it, so every object's bytes have that
// much spare capacity (objectBytes); the access's own check against the
// object's limits (readLimit, writeLimit, never above its length) is
// what keeps it inside the object.

// wordSlack is the spare capacity past its length every object's bytes
// have.
const wordSlack = 7

// objectBytes returns n zero bytes with wordSlack bytes of spare capacity.
func objectBytes(n uint64) []byte { return make([]byte, n, n+wordSlack) }

// copyBytes returns a copy of b with the spare capacity; nil (a
// function's or a freed object's bytes: none) stays nil.
func copyBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	c := objectBytes(uint64(len(b)))
	copy(c, b)
	return c
}

// loadWord reads the value of the bytes mask covers at off in o, where
// off plus the access's size is within o's length.
func loadWord(o *Object, off, mask uint64) uint64 {
	if !hostLittleEndian {
		return ir.LoadLE(o.bytes[off:], bits.OnesCount64(mask)/8)
	}
	return *(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(o.bytes)), off)) & mask
}

// storeWord writes v to the bytes mask covers at off in o (as loadWord),
// leaving the word's other bytes as they are.
func storeWord(o *Object, off, mask, v uint64) {
	if !hostLittleEndian {
		ir.StoreLE(o.bytes[off:], bits.OnesCount64(mask)/8, v)
		return
	}
	w := (*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(o.bytes)), off))
	*w = *w&^mask | v&mask
}
