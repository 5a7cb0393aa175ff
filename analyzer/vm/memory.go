package vm

import (
	"fmt"
	"sync/atomic"

	"augur/analyzer/expr"
	"augur/analyzer/ir"
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
	ID uint32
	// Serial numbers allocations uniquely within an execution: a reused
	// stack id gets a new serial, so per-object analysis state keyed by id
	// can tell a new object from the old one.
	Serial   uint64
	Size     uint64
	Kind     ObjKind
	Name     string   // global name, or a description for dynamic objects
	Site     ir.LocID // allocation site
	Thread   int      // allocating thread
	Freed    bool
	ReadOnly bool
	FreeSite ir.LocID
	// readLimit and writeLimit are the sizes a read or a write may reach: the
	// object's size, or 0 when such accesses are invalid (freed, code,
	// read-only). One comparison then accepts every valid access; only a
	// failing access takes the slow path that says why.
	readLimit  uint64
	writeLimit uint64
	bytes      []byte
	sym        []*expr.Expr // per-byte symbolic contents; nil while all concrete
	gen        uint64       // generation of the memory that may write it in place
}

// Memory is the address space of one execution state: object id -> object.
type Memory struct {
	serial uint64
	objs   []*Object
	gen    uint64
	nextID uint32
	// stackFree holds ids of stack objects whose frames returned; they are
	// reused so loops of calls do not grow the table. Heap ids are never
	// reused, so a dangling heap pointer is always caught.
	stackFree []uint32
}

// genCounter numbers memory generations; executions in different
// goroutines (parallel classification) draw from it concurrently.
var genCounter atomic.Uint64

func newGen() uint64 { return genCounter.Add(1) }

// Fork returns a copy of m that shares every object copy-on-write.
func (m *Memory) Fork() *Memory {
	c := &Memory{objs: append([]*Object(nil), m.objs...), gen: newGen(), nextID: m.nextID, serial: m.serial,
		stackFree: append([]uint32(nil), m.stackFree...)}
	m.gen = newGen() // objects now shared: the parent must copy before writing too
	return c
}

// Object returns the live or freed object with id, or nil.
func (m *Memory) Object(id uint32) *Object {
	if int(id) < len(m.objs) {
		return m.objs[id]
	}
	return nil
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
	o := &Object{ID: id, Serial: m.serial, Size: size, Kind: kind, Name: name, Site: site, Thread: thread,
		bytes: make([]byte, size), gen: m.gen}
	o.setLimits()
	for int(id) >= len(m.objs) {
		m.objs = append(m.objs, nil)
	}
	m.objs[id] = o
	return o
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
	m.serial++
	o.Serial = m.serial
	o.setLimits()
	for int(o.ID) >= len(m.objs) {
		m.objs = append(m.objs, nil)
	}
	o.gen = m.gen
	m.objs[o.ID] = o
}

// releaseStack frees a stack object when its frame returns.
func (m *Memory) releaseStack(id uint32) {
	m.objs[id] = nil
	m.stackFree = append(m.stackFree, id)
}

// writable returns the object with id, copied first if it is shared.
func (m *Memory) writable(o *Object) *Object {
	if o.gen == m.gen {
		return o
	}
	c := *o
	c.bytes = append([]byte(nil), o.bytes...)
	if o.sym != nil {
		c.sym = append([]*expr.Expr(nil), o.sym...)
	}
	c.gen = m.gen
	m.objs[o.ID] = &c
	return &c
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
	id, off := uint32(e.Addr>>ir.AddrShift), e.Addr&(1<<ir.AddrShift-1)
	switch {
	case e.Object == nil && id == 0:
		return fmt.Sprintf("%s: %s of %d bytes at address 0x%x", e.Kind, verb, e.Size, e.Addr)
	case e.Object == nil:
		return fmt.Sprintf("%s: %s of %d bytes at wild address 0x%x", e.Kind, verb, e.Size, e.Addr)
	}
	return fmt.Sprintf("%s: %s of %d bytes at offset %d of %s (%d bytes)", e.Kind, verb, e.Size, off, e.Object.describe(), e.Object.Size)
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
	if int(id) < len(m.objs) {
		if o := m.objs[id]; o != nil {
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
	if int(id) >= len(m.objs) || m.objs[id] == nil {
		kind := "wild pointer"
		if id == 0 {
			kind = "null pointer dereference"
			if off >= 4096 {
				kind = "wild pointer"
			}
		}
		return nil, 0, &AccessError{Kind: kind, Addr: addr, Size: size, Write: write}
	}
	o := m.objs[id]
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
	return "", &AccessError{Kind: "out of bounds " + o.Kind.String() + " access (unterminated string)", Addr: addr + uint64(len(b)), Size: 1, Object: o}
}
