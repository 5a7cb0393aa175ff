package vm

import (
	"runtime"
	"sync"
	"weak"
)

// Copy on write by the page. An object shared with a fork is copied
// before its first write (Memory.writable); a small object is copied
// whole, on the Go heap. A big one (cowMin bytes or more) is not: its
// bytes as they were when it was first copied are frozen once into a
// file in memory, and each copy maps that file privately, so the kernel
// copies a page at a time, when the copy writes it. A schedule that
// resumes from a snapshot holding a 64 MiB array and writes a few bytes
// of it then copies a few pages, not 64 MiB (it was 942 MiB of RSS and
// 315 schedules in 10 s for such a program).
//
// The interpreter's loads and stores see no difference: the bytes are
// still one slice, which now lies in the mapping. A mapping is unmapped
// once no object holds it; an object replaced or dropped by its memory
// keeps its mapping in the memory's graveyard until the next budget
// check, so a slice taken from it (Memory.Read) during the instruction
// that replaced it stays valid.

// cowMin is the size from which an object is copied page by page.
const cowMin = 1 << 20

// frozenBytes is an immutable object's bytes in a file in memory, from
// which its copies map their own.
type frozenBytes struct {
	fd   int
	size int // the file's length: the object's bytes with slack, in whole pages
}

// mapping is the private mapping a copied object's bytes lie in.
type mapping struct {
	mem []byte
}

// frozen holds the frozen bytes of the objects frozen so far, each while
// its object lives. It is kept apart from the objects because an object
// shared between executions in parallel is read by them all, and may be
// frozen by two at once.
var (
	freezeMu sync.Mutex
	frozen   = map[weak.Pointer[Object]]*frozenBytes{}
)

// pageCopy returns a copy of o's bytes that copies pages as they are
// written, and the mapping it lies in; ok is false when o is too small
// for that or the system refuses (the caller copies whole then).
func pageCopy(o *Object) (b []byte, mp *mapping, ok bool) {
	if len(o.bytes) < cowMin {
		return nil, nil, false
	}
	f := o.freeze()
	if f == nil {
		return nil, nil, false
	}
	mem, err := mapPrivate(f.fd, f.size)
	if err != nil {
		return nil, nil, false
	}
	mp = &mapping{mem: mem}
	runtime.AddCleanup(mp, unmap, mem)
	n := len(o.bytes)
	return mem[: n : n+wordSlack], mp, true
}

// freeze returns o's bytes frozen into a file, made on the first call.
// o must be immutable: shared, so every memory copies it before writing.
func (o *Object) freeze() *frozenBytes {
	key := weak.Make(o)
	freezeMu.Lock()
	defer freezeMu.Unlock()
	if f := frozen[key]; f != nil {
		return f
	}
	size := (len(o.bytes) + wordSlack + pageBytes - 1) / pageBytes * pageBytes
	fd, err := frozenFile(o.bytes, size)
	if err != nil {
		return nil
	}
	f := &frozenBytes{fd: fd, size: size}
	runtime.AddCleanup(f, closeFile, fd)
	frozen[key] = f
	runtime.AddCleanup(o, thaw, key)
	return f
}

// thaw forgets the frozen bytes of an object no longer held; its file is
// closed once no copy is being made from it.
func thaw(key weak.Pointer[Object]) {
	freezeMu.Lock()
	delete(frozen, key)
	freezeMu.Unlock()
}

// pageBytes is the size of a page of the mappings.
const pageBytes = 4096

// bury keeps the mapping of an object the memory replaced or dropped
// until the next budget check (see the comment at the top).
func (m *Memory) bury(o *Object) {
	if o != nil && o.mapped != nil {
		m.graveyard = append(m.graveyard, o.mapped)
	}
}

// safePoint drops the graveyard: between two instructions no slice of a
// replaced object's bytes is held.
func (m *Memory) safePoint() {
	if len(m.graveyard) > 0 {
		clear(m.graveyard)
		m.graveyard = m.graveyard[:0]
	}
}
