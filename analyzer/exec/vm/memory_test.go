package vm

import (
	"testing"
	"unsafe"

	"augur/analyzer/frontend/ir"
)

// A fork shares the object table page by page; what either side then
// allocates, frees, writes or releases stays its own.
func TestMemoryForkIsolation(t *testing.T) {
	m := &Memory{gen: newGen(), nextID: 1}
	a := m.alloc(ObjHeap, 8, "a", 0, 0)
	b := m.alloc(ObjHeap, 8, "b", 0, 0)
	c := m.Fork()
	// The parent writes a, frees b and allocates; the fork writes a too.
	pw, err := m.writeSlice(ir.Addr(a.ID, 0), 1)
	if err != nil {
		t.Fatal(err)
	}
	pw[0] = 1
	m.retire(m.Object(b.ID))
	m.set(b.ID, nil)
	n := m.alloc(ObjHeap, 8, "new", 0, 0)
	cw, err := c.writeSlice(ir.Addr(a.ID, 0), 1)
	if err != nil {
		t.Fatal(err)
	}
	cw[0] = 2
	if got := m.Object(a.ID).bytes[0]; got != 1 {
		t.Errorf("parent's a = %d, want 1", got)
	}
	if got := c.Object(a.ID).bytes[0]; got != 2 {
		t.Errorf("fork's a = %d, want 2", got)
	}
	if m.Object(b.ID) != nil || c.Object(b.ID) == nil || c.WasFreed(b.ID) {
		t.Errorf("freeing b in the parent reached the fork")
	}
	if c.Object(n.ID) != nil {
		t.Errorf("the parent's new object is in the fork")
	}
	if bytes, objs := c.Live(); bytes != 16 || objs != 2 {
		t.Errorf("fork holds %d bytes in %d objects, want 16 in 2", bytes, objs)
	}
}

// The one-entry cache of the inline accesses follows the table: a copy
// made for writing after a fork, a freed object's removal and a reused id
// are what cached returns next, on each side of the fork.
func TestMemoryCacheFollowsTheTable(t *testing.T) {
	m := &Memory{gen: newGen(), nextID: 1}
	a := m.alloc(ObjHeap, 8, "a", 0, 0)
	if m.cached(a.ID) != a {
		t.Fatal("cached a is not a")
	}
	c := m.Fork()
	ca := c.writable(c.cached(a.ID))
	if ca == a || c.cached(a.ID) != ca {
		t.Errorf("the fork's cache does not hold its copy of a after a write")
	}
	pa := m.writable(m.cached(a.ID))
	if pa == ca || m.cached(a.ID) != pa {
		t.Errorf("the parent's cache does not hold its own copy of a after a write")
	}
	m.set(a.ID, nil)
	if m.cached(a.ID) != nil {
		t.Errorf("cached returns a after its removal")
	}
	if c.cached(a.ID) != ca {
		t.Errorf("the parent's removal of a reached the fork's cache")
	}
	if m.cached(0) != nil {
		t.Errorf("cached(0), the null pointer's id, is an object")
	}
}

// Freed heap objects keep their tombstones only while they are among
// the last quarantineSize frees: past that the table forgets them, drops
// the pages left empty and keeps a freed bit per id, on each side of a
// fork alike.
func TestQuarantineForgetsTheOldestTombstones(t *testing.T) {
	m := &Memory{gen: newGen(), nextID: 1}
	free := func(m *Memory, id uint32) {
		o := m.freeing(m.Object(id))
		o.Freed = true
		o.setLimits()
		m.retire(o)
	}
	var ids []uint32
	for i := 0; i < quarantineSize+2*pageSize; i++ {
		ids = append(ids, m.alloc(ObjHeap, 16, "", 0, 0).ID)
	}
	first := ids[0]
	m.cached(first)
	for _, id := range ids[:quarantineSize] {
		free(m, id)
	}
	c := m.Fork()
	for _, id := range ids[quarantineSize:] {
		free(m, id)
	}
	for _, id := range ids[:2*pageSize] {
		if m.Object(id) != nil || !m.WasFreed(id) {
			t.Fatalf("id %d: tombstone %v, freed %v; want forgotten and freed", id, m.Object(id), m.WasFreed(id))
		}
	}
	if m.cached(first) != nil {
		t.Errorf("the cache still holds the forgotten tombstone of %d", first)
	}
	if pg := int(first >> pageBits); m.pages[pg] != nil {
		t.Errorf("page %d holds no object but is kept", pg)
	}
	if o := m.Object(ids[len(ids)-1]); o == nil || !o.Freed {
		t.Errorf("the newest free has no tombstone: %v", o)
	}
	if bytes, objs := m.Live(); bytes != 0 || objs != 0 {
		t.Errorf("%d bytes in %d objects live after every free", bytes, objs)
	}
	// The fork was made before the last frees: its oldest tombstones and
	// its newest objects are as they were.
	if o := c.Object(first); o == nil || !o.Freed {
		t.Errorf("the parent's frees took the fork's tombstone of %d: %v", first, o)
	}
	if o := c.Object(ids[len(ids)-1]); o == nil || o.Freed {
		t.Errorf("the parent's free reached the fork's live object: %v", o)
	}
}

// TestObjectOverheadCoversTheRecord keeps the memory budget's cost of an
// object's record at least the record's size, so that a field added to
// Object cannot make the budget undercount what a program holds.
func TestObjectOverheadCoversTheRecord(t *testing.T) {
	if size := unsafe.Sizeof(Object{}); size > ObjectOverhead {
		t.Fatalf("an Object record is %d bytes, but ObjectOverhead counts %d: raise it to the record's Go size class", size, ObjectOverhead)
	}
}
