package vm

import (
	"fmt"
	"strings"
	"sync/atomic"

	"augur/analyzer/exec/expr"
	"augur/analyzer/frontend/ir"
	"augur/internal/bytesize"
)

// ObjKind says what a memory object is.
type ObjKind uint8

const (
	ObjFunc ObjKind = iota
	ObjGlobal
	ObjStack
	ObjHeap
	ObjTLS
	ObjVarargs
)

var objKindNames = [...]string{"function", "global", "stack", "heap", "thread-local", "varargs"}

func (k ObjKind) String() string { return objKindNames[k] }

// Object is one allocation. Its bytes are shared between forked states until
// one of them writes (copy on write, keyed by the owning memory's generation).
type Object struct {
	ID       uint32
	Kind     ObjKind
	Freed    bool
	ReadOnly bool
	Thread   int32    // allocating thread
	Site     ir.LocID // allocation site
	FreeSite ir.LocID
	// Serial numbers allocations uniquely within an execution: a reused
	// stack id gets a new serial, so per-object analysis state keyed by id
	// can tell a new object from the old one.
	Serial uint64
	Size   uint64
	Name   string // global name, or a description for dynamic objects
	// Unwatched objects are the runtime's own, synchronized by what augur
	// models rather than by the program (see unwatched): race detection
	// skips their accesses.
	Unwatched bool
	// quiet is the mark of the thread whose raw accesses skip the
	// monitor (quiet.go); 0 for none.
	quiet uint64
	// readLimit and writeLimit are the sizes a read or a write may reach: the
	// object's size, or 0 when such accesses are invalid (freed, code,
	// read-only). One comparison then accepts every valid access; only a
	// failing access takes the slow path that says why.
	readLimit  uint64
	writeLimit uint64
	bytes      []byte
	sym        []*expr.Expr // per-byte symbolic contents; nil while all concrete
	gen        uint64       // generation of the memory that may write it in place
	// mapped is the mapping bytes lie in when they were copied page by
	// page (cow.go); nil when they are on the Go heap.
	mapped *mapping
	// small holds the bytes of an object that fits in it with the spare
	// capacity (smallBytes), so that allocating one, a list node or a
	// small stack slot, is one Go allocation rather than two. A copy of
	// the record (writable, freeing) never shares it: its bytes are copied
	// or dropped.
	small [smallBytes]byte
}

// smallBytes is the size of Object.small: an object of up to
// smallBytes-wordSlack bytes (17: a node of two pointers, say) keeps its
// bytes in its record.
const smallBytes = 24

// Memory is the address space of one execution state: object id -> object.
//
// The table is paged so that it follows what the program holds, not what
// it has done: heap ids are never reused (a dangling pointer is always
// caught), so a page whose objects are all gone is dropped, and a freed
// object stays in the table (as a tombstone with no bytes, naming its
// free site) only while it is among the last quarantineSize frees; after
// that a bit per id remembers that it was freed.
type Memory struct {
	serial uint64
	pages  []*objPage
	gen    uint64
	nextID uint32
	// stackFree holds ids of stack objects whose frames returned; they are
	// reused so loops of calls do not grow the table. Heap ids are never
	// reused, so a dangling heap pointer is always caught.
	stackFree []uint32
	// freed has a bit per heap id ever freed; quarantine holds the ids of
	// the latest frees, whose tombstones stay in the table.
	freed       []uint64
	quarantine  []uint32
	qHead       int
	freesShared bool // freed and quarantine are shared with a fork
	// live is the bytes the program's live objects hold, objects how many
	// there are: what the memory budget measures.
	live    uint64
	objects int
	// lastID and lastObj remember the object the interpreter's inline
	// loads and stores found last (cached): a loop's accesses mostly hit
	// one object, and the table's pages are three dependent loads away.
	// set and writable keep the entry current; id 0 is the null pointer,
	// never an object, so the zero entry is right as it is.
	lastID  uint32
	lastObj *Object
	// graveyard keeps the mappings of objects replaced or dropped since
	// the last budget check (cow.go).
	graveyard []*mapping
}

// Object tables are paged: page id>>pageBits holds ids of the same high
// bits. objPage.n counts its entries in use.
const (
	pageBits = 6
	pageSize = 1 << pageBits
	pageMask = pageSize - 1
)

type objPage struct {
	objs [pageSize]*Object
	n    int
	// gen is the generation of the memory that may change the page in
	// place; forks share pages and copy one before changing it.
	gen uint64
}

// quarantineSize is how many freed heap objects keep their tombstones,
// for messages that say where a double-freed object was first freed.
const quarantineSize = 1 << 16

// ObjectOverhead is what an object costs beyond its bytes (its record in
// the table), as the memory budget counts it: the Go size class of an
// Object, which TestObjectOverheadCoversTheRecord keeps it at or above.
// A small object's bytes lie in its record and are counted once more
// with its size: the budget errs by at most smallBytes an object, and
// on the side of stopping early.
const ObjectOverhead = 176

// genCounter numbers memory generations; executions in different
// goroutines (parallel classification) draw from it concurrently.
var genCounter atomic.Uint64

func newGen() uint64 { return genCounter.Add(1) }

// Fork returns a copy of m that shares every object copy-on-write.
func (m *Memory) Fork() *Memory {
	c := *m
	// Pages are shared too: both sides get a new generation, so either
	// copies a page before changing it (see page).
	c.pages = append([]*objPage(nil), m.pages...)
	c.gen = newGen()
	c.stackFree = append([]uint32(nil), m.stackFree...)
	c.graveyard = nil
	// The record of frees is shared until either side frees again.
	m.freesShared, c.freesShared = true, true
	m.gen = newGen() // objects now shared: the parent must copy before writing too
	return &c
}

// Object returns the live object with id, or the tombstone of a freed
// one still in quarantine, or nil.
func (m *Memory) Object(id uint32) *Object {
	if pg := int(id >> pageBits); pg < len(m.pages) {
		if p := m.pages[pg]; p != nil {
			return p.objs[id&pageMask]
		}
	}
	return nil
}

// cached is Object through the one-entry cache of the last object found.
func (m *Memory) cached(id uint32) *Object {
	if id == m.lastID {
		return m.lastObj
	}
	o := m.Object(id)
	m.lastID, m.lastObj = id, o
	return o
}

// set installs o (or nil) as the object with id.
func (m *Memory) set(id uint32, o *Object) {
	if id == m.lastID {
		m.lastObj = o
	}
	pg := int(id >> pageBits)
	for pg >= len(m.pages) {
		m.pages = append(m.pages, nil)
	}
	p := m.page(pg)
	if p == nil {
		if o == nil {
			return
		}
		p = &objPage{gen: m.gen}
		m.pages[pg] = p
	}
	old := p.objs[id&pageMask]
	p.objs[id&pageMask] = o
	if old != o {
		m.bury(old)
	}
	switch {
	case old == nil && o != nil:
		p.n++
	case old != nil && o == nil:
		p.n--
		if p.n == 0 {
			m.pages[pg] = nil
		}
	}
}

// page returns page pg for changing, copied first when a fork shares it
// (nil when there is none).
func (m *Memory) page(pg int) *objPage {
	p := m.pages[pg]
	if p != nil && p.gen != m.gen {
		cp := *p
		cp.gen = m.gen
		p = &cp
		m.pages[pg] = p
	}
	return p
}

// each calls f with every object in the table, in id order.
func (m *Memory) each(f func(*Object)) {
	for _, p := range m.pages {
		if p == nil {
			continue
		}
		for _, o := range p.objs {
			if o != nil {
				f(o)
			}
		}
	}
}

// WasFreed reports whether id is a heap object the program freed.
func (m *Memory) WasFreed(id uint32) bool {
	w := int(id / 64)
	return w < len(m.freed) && m.freed[w]&(1<<(id%64)) != 0
}

// Live returns the bytes the program's live objects hold and how many
// objects there are.
func (m *Memory) Live() (bytes uint64, objects int) { return m.live, m.objects }

// Footprint is the memory budget's measure of the address space: the
// live bytes plus the cost of each object's record and of its bytes'
// spare capacity (wordSlack).
func (m *Memory) Footprint() uint64 {
	return m.live + uint64(m.objects)*(ObjectOverhead+wordSlack) + uint64(len(m.quarantine))*ObjectOverhead +
		uint64(len(m.freed))*8
}

// alloc creates an object of size bytes.
func (m *Memory) alloc(kind ObjKind, size uint64, name string, site ir.LocID, thread int) *Object {
	var id uint32
	if (kind == ObjStack || kind == ObjVarargs) && len(m.stackFree) > 0 {
		id = m.stackFree[len(m.stackFree)-1]
		m.stackFree = m.stackFree[:len(m.stackFree)-1]
	} else {
		id = m.nextID
		m.nextID++
	}
	m.serial++
	o := &Object{ID: id, Serial: m.serial, Size: size, Kind: kind, Name: name, Site: site, Thread: int32(thread), gen: m.gen}
	if size+wordSlack <= smallBytes {
		o.bytes = o.small[:size:smallBytes]
	} else {
		o.bytes = objectBytes(size)
	}
	o.setLimits()
	m.set(id, o)
	m.live += size
	m.objects++
	return o
}

// retire takes a heap object out of the live ones once it is freed: its
// tombstone stays for the quarantine, then only its freed bit.
func (m *Memory) retire(o *Object) {
	m.live -= o.Size
	m.objects--
	if m.freesShared {
		m.freed = append([]uint64(nil), m.freed...)
		m.quarantine = append([]uint32(nil), m.quarantine...)
		m.freesShared = false
	}
	w := int(o.ID / 64)
	for w >= len(m.freed) {
		m.freed = append(m.freed, 0)
	}
	m.freed[w] |= 1 << (o.ID % 64)
	if len(m.quarantine) < quarantineSize {
		m.quarantine = append(m.quarantine, o.ID)
		return
	}
	m.forget(m.quarantine[m.qHead])
	m.quarantine[m.qHead] = o.ID
	m.qHead = (m.qHead + 1) % quarantineSize
}

// forget takes the tombstone of a freed heap object out of the table
// when it leaves the quarantine. Unlike set(id, nil) it never reads the
// object: a tombstone holds no bytes and no mapping (freeing dropped
// them), and the tombstone of a free 65,536 frees ago is seldom in the
// processor's cache any more: reading it was a tenth of binary_trees'
// run.
func (m *Memory) forget(id uint32) {
	pg := int(id >> pageBits)
	if pg >= len(m.pages) || m.pages[pg] == nil || m.pages[pg].objs[id&pageMask] == nil {
		return
	}
	if id == m.lastID {
		m.lastObj = nil
	}
	p := m.page(pg)
	p.objs[id&pageMask] = nil
	if p.n--; p.n == 0 {
		m.pages[pg] = nil
	}
}

// setLimits derives the access limits from the object's state; call it after
// changing Freed, ReadOnly, Kind or Size.
func (o *Object) setLimits() {
	o.readLimit, o.writeLimit = o.Size, o.Size
	if o.Freed || o.Kind == ObjFunc {
		o.readLimit, o.writeLimit = 0, 0
	}
	if o.ReadOnly {
		o.writeLimit = 0
	}
}

// place installs an object with a fixed id (functions and globals).
func (m *Memory) place(o *Object) {
	if cap(o.bytes)-len(o.bytes) < wordSlack {
		o.bytes = copyBytes(o.bytes) // see loadWord
	}
	m.serial++
	o.Serial = m.serial
	o.setLimits()
	o.gen = m.gen
	m.set(o.ID, o)
	m.live += o.Size
	m.objects++
}

// releaseStack frees a stack object when its frame returns.
func (m *Memory) releaseStack(id uint32) {
	if o := m.Object(id); o != nil {
		m.live -= o.Size
		m.objects--
	}
	m.set(id, nil)
	m.stackFree = append(m.stackFree, id)
}

// writable returns the object with id, copied first if it is shared.
func (m *Memory) writable(o *Object) *Object {
	if o.gen == m.gen {
		return o
	}
	c := *o
	if b, mp, ok := pageCopy(o); ok {
		c.bytes, c.mapped = b, mp
	} else {
		c.bytes, c.mapped = copyBytes(o.bytes), nil
	}
	if o.sym != nil {
		c.sym = append([]*expr.Expr(nil), o.sym...)
	}
	return m.replace(o, &c)
}

// freeing returns o's record for marking it freed, without its bytes
// (the free drops them): copied first if it is shared, but never its
// bytes.
func (m *Memory) freeing(o *Object) *Object {
	c := o
	if o.gen != m.gen {
		cp := *o
		c = m.replace(o, &cp)
	} else {
		m.bury(o) // its mapping, if any, goes with its bytes
	}
	c.bytes, c.sym, c.mapped = nil, nil, nil
	return c
}

// replace installs c, a copy of o made for writing, in o's place.
func (m *Memory) replace(o, c *Object) *Object {
	m.bury(o)
	c.gen = m.gen
	m.page(int(o.ID >> pageBits)).objs[o.ID&pageMask] = c
	if o.ID == m.lastID {
		m.lastObj = c
	}
	return c
}

// AccessError describes an invalid memory access; the VM turns it into a
// crash termination.
type AccessError struct {
	Kind   string // "null pointer", "out of bounds", "use after free", ...
	Addr   uint64
	Size   uint64
	Write  bool
	Object *Object
}

func (e *AccessError) Error() string {
	verb := "read"
	if e.Write {
		verb = "write"
	}
	id := uint32(e.Addr >> ir.AddrShift)
	raw := e.Addr & (1<<ir.AddrShift - 1)
	off := int64(raw)
	if raw >= 1<<31 && (e.Object == nil || raw >= e.Object.Size) {
		off = int64(int32(uint32(raw))) // before the object's start: the offset wrapped, say it as negative
	}
	switch {
	case e.Object == nil && e.Kind == "use after free":
		return fmt.Sprintf("%s: %s of %s at offset %d of a heap object freed earlier", e.Kind, verb, bytesize.Count(e.Size), off)
	case e.Object == nil && id == 0:
		return fmt.Sprintf("%s: %s of %s at address 0x%x", e.Kind, verb, bytesize.Count(e.Size), e.Addr)
	case e.Object == nil:
		return fmt.Sprintf("%s: %s of %s at wild address 0x%x", e.Kind, verb, bytesize.Count(e.Size), e.Addr)
	}
	return fmt.Sprintf("%s: %s of %s at offset %d of %s (%s)", e.Kind, verb, bytesize.Count(e.Size), off, e.Object.describe(), bytesize.Count(e.Object.Size))
}

func (o *Object) describe() string {
	switch o.Kind {
	case ObjGlobal, ObjTLS:
		return fmt.Sprintf("global '%s'", o.Name)
	case ObjFunc:
		return fmt.Sprintf("function '%s'", o.Name)
	}
	if o.Name != "" {
		return fmt.Sprintf("%s object '%s'", o.Kind, o.Name)
	}
	return fmt.Sprintf("%s object", o.Kind)
}

// resolve checks an access of size bytes at addr and returns the object and
// the offset.
func (m *Memory) resolve(addr, size uint64, write bool) (*Object, uint64, error) {
	id := uint32(addr >> ir.AddrShift)
	off := addr & (1<<ir.AddrShift - 1)
	if pg := int(id >> pageBits); pg < len(m.pages) && m.pages[pg] != nil {
		if o := m.pages[pg].objs[id&pageMask]; o != nil {
			limit := o.readLimit
			if write {
				limit = o.writeLimit
			}
			if off+size <= limit && off+size >= off {
				return o, off, nil
			}
		}
	}
	return m.accessError(addr, size, write)
}

// accessError explains why an access failed the fast check in resolve.
func (m *Memory) accessError(addr, size uint64, write bool) (*Object, uint64, error) {
	id := uint32(addr >> ir.AddrShift)
	off := addr & (1<<ir.AddrShift - 1)
	o := m.Object(id)
	if o == nil && m.WasFreed(id) {
		return nil, 0, &AccessError{Kind: "use after free", Addr: addr, Size: size, Write: write}
	}
	if o == nil {
		kind := "wild pointer"
		if id == 0 {
			kind = "null pointer dereference"
			if off >= 4096 {
				kind = "wild pointer"
			}
		}
		return nil, 0, &AccessError{Kind: kind, Addr: addr, Size: size, Write: write}
	}
	switch {
	case o.Freed:
		return nil, 0, &AccessError{Kind: "use after free", Addr: addr, Size: size, Write: write, Object: o}
	case o.Kind == ObjFunc:
		return nil, 0, &AccessError{Kind: "access to code", Addr: addr, Size: size, Write: write, Object: o}
	case off+size > o.Size || off+size < off:
		return nil, 0, &AccessError{Kind: "out of bounds " + o.Kind.String() + " access", Addr: addr, Size: size, Write: write, Object: o}
	case write && o.ReadOnly:
		return nil, 0, &AccessError{Kind: "write to read-only memory", Addr: addr, Size: size, Write: write, Object: o}
	}
	return nil, 0, &AccessError{Kind: "invalid access", Addr: addr, Size: size, Write: write, Object: o}
}

// Read returns the size bytes at addr. The slice aliases the object: copy it
// before the memory changes.
func (m *Memory) Read(addr, size uint64) ([]byte, error) {
	o, off, err := m.resolve(addr, size, false)
	if err != nil {
		return nil, err
	}
	return o.bytes[off : off+size], nil
}

// Write copies data to addr.
func (m *Memory) Write(addr uint64, data []byte) error {
	o, off, err := m.resolve(addr, uint64(len(data)), true)
	if err != nil {
		return err
	}
	o = m.writable(o)
	copy(o.bytes[off:], data)
	return nil
}

// writeSlice returns the bytes at addr for writing in place.
func (m *Memory) writeSlice(addr, size uint64) ([]byte, error) {
	o, off, err := m.resolve(addr, size, true)
	if err != nil {
		return nil, err
	}
	if o.gen != m.gen {
		o = m.writable(o)
	}
	return o.bytes[off : off+size], nil
}

// ReadCString reads a NUL-terminated string at addr (at most max bytes).
func (m *Memory) ReadCString(addr uint64, max int) (string, error) {
	o, off, err := m.resolve(addr, 1, false)
	if err != nil {
		return "", err
	}
	b := o.bytes[off:]
	for i, c := range b {
		if c == 0 {
			return string(b[:i]), nil
		}
		if i >= max {
			return string(b[:i]), nil
		}
	}
	if len(b) == max {
		return string(b), nil // max bytes, all in the object: no terminator needed
	}
	return "", &AccessError{Kind: "out of bounds " + o.Kind.String() + " access (unterminated string)", Addr: addr + uint64(len(b)), Size: 1, Object: o}
}

// unwatched reports whether a global is one whose concurrent use is not a
// data race by the library's specification though its code is interpreted:
// the C++ standard streams (cin, cout, cerr, clog) and the stdio buffers behind
// them, which the C++ runtime names __augur_sync_*.
func unwatched(name string) bool {
	switch name {
	case "_ZSt3cin", "_ZSt4cout", "_ZSt4cerr", "_ZSt4clog":
		return true
	}
	return strings.HasPrefix(name, "__augur_sync_")
}
