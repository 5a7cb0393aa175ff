package libc

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"

	"augur/analyzer/exec/expr"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// bufMode is a stream's buffering, as glibc sets it up.
type bufMode uint8

const (
	unbuffered bufMode = iota
	lineBuffered
	fullyBuffered
)

// stdioBufSize is glibc's buffer size for pipes and files.
const stdioBufSize = 4096

// vfile is one open FILE (or file descriptor) of the virtual file system.
type vfile struct {
	fd      int
	proc    int // the process that opened it (Thread.proc)
	path    string
	mode    bufMode
	pending []byte       // written but not yet flushed
	data    *contents    // readable contents (stdin, files opened for reading, a memory stream's)
	sym     []*expr.Expr // symbolic bytes of data (nil entries are concrete); nil when all are
	src     io.Reader    // more input, read on demand (the real stdin of `augur run`)
	read    bool
	write   bool
	appends bool // every write goes at the end (fopen "a", O_APPEND)
	dir     bool // a directory, opened to fsync or fstat it
	eof     bool
	// drained is set once a read found the end of the input: unlike eof,
	// clearerr and a seek do not reset it.
	drained bool
	unget   int // pushed-back byte + 1, 0 if none
	// A pipe end or a socketpair's reads from rx and writes to tx; a
	// socket is sock; an epoll instance epoll (ids in the netTable, see
	// net.go).
	rx, tx, sock, epoll, event uint64
	// mem is a memory stream's buffer (memstream.go); such a stream has
	// no descriptor (fd -1).
	mem *memStream
	// openDesc is the open file description the descriptor is of, which
	// its dups share; cloexec is the descriptor's own FD_CLOEXEC.
	*openDesc
	cloexec bool
	// dev is the kind of device f is (devices; devNone for a file).
	dev byte
	// closed is set when f's descriptor is closed while a stdio stream
	// still refers to it (close(1)): the stream's writes go nowhere
	// until the number is given to another file.
	closed bool
}

// openDesc is an open file description: what open, fopen, pipe and
// socket make and dup shares, as the kernel's struct file. desc numbers
// it: the owner of flock and open-file-description locks (filelock.go),
// and what an epoll interest is in (net_poll.go); pos is where the next
// read or write of a file goes; nonblock is O_NONBLOCK;
// stdFD is 1 + the number of the standard stream the run began with
// that it is (0: none), wherever a dup puts it.
type openDesc struct {
	desc     uint64
	pos      int
	nonblock bool
	stdFD    int8
	rand     uint64 // a random device's state
}

// std reports whether f is of a standard stream as the run began: stdin,
// stdout or stderr, or a dup of one, not reopened on a file (freopen).
func (f *vfile) std() bool { return f.stdFD != 0 }

// stdNum is the number the standard stream f is of had as the run
// began (0, 1 or 2), or -1.
func (f *vfile) stdNum() int { return int(f.stdFD) - 1 }

// terminal reports whether what f writes goes to the run's standard
// output or error as it began: not reopened, redirected to a pipe or
// socket, or read.
func (f *vfile) terminal() bool { return f.stdNum() > 0 && !f.closed }

// destination names where f writes, for a reason (Result.Unordered).
func (f *vfile) destination() string {
	switch {
	case f.mem != nil:
		return "a memory stream"
	case f.isNet():
		return "a pipe or socket"
	case f.path != "":
		return f.path
	}
	return fmt.Sprintf("descriptor %d", f.fd)
}

// fileTable holds the virtual file system and the open streams. FILE
// pointers of the program map to vfiles by address.
type fileTable struct {
	m      *machine
	fs     map[string]*contents
	fsSym  map[string][]*expr.Expr // symbolic contents of files (SymFiles)
	byAddr map[uint64]*vfile
	byFD   map[int]*vfile
	// stdFiles are the standard streams as the run began, wherever fd
	// 0 to 2 and the stdin, stdout and stderr streams point now
	// (StdinDrained); stdVars are the addresses of the program's stdin,
	// stdout and stderr (the runtime's FILE pointers; 0 where there is
	// none).
	stdFiles [3]*vfile
	stdVars  [3]uint64
	// stdAddrs are the addresses of the runtime's three FILEs.
	stdAddrs [3]uint64
	stdout   io.Writer
	stderr   io.Writer
	// dirs are the directories the program made (mkdir), /tmp and
	// /dev/shm; inodes the numbers files were given, nextIno the next
	// free one (vfs_names.go).
	dirs    map[string]bool
	inodes  map[string]uint64
	nextIno uint64
	// hasLinks is set once the program made a hard link (vfs_links.go):
	// from then on, names that share an inode number share their file.
	hasLinks bool
	// perms are the permission bits set by a creation or chmod, by
	// vpath; umask is the file mode creation mask (vfs_modes.go).
	perms map[string]uint32
	umask uint32
	// cwd is the working directory (a vpath); listings are the
	// open directory streams (opendir) by DIR pointer (vfs_dirs.go).
	cwd      string
	listings map[uint64]*listing
	// net holds the pipes and sockets (net.go); nil until the first.
	net *netTable
	// fifos are the named pipes (fifo.go), each with the id of its pipe
	// in net (0 or gone: no end is open).
	fifos map[string]uint64
	// symlinks are the symbolic links, each with its text
	// (vfs_symlinks.go).
	symlinks map[string]string
	// mappings are the shared file mappings that write back, by address
	// (mmap.go).
	mappings map[uint64]mapping
	// locks are the file locks by inode, nextDesc the last open file
	// description's number (filelock.go).
	locks    map[uint64][]fileLock
	nextDesc uint64
	// missing are the files the program looked for by name and did not
	// find, with where it first looked (noteMissing).
	missing map[string]ir.LocID
	// given is what the execution was given to begin with, by vpath: the
	// contents Written compares the files with. It is never written, so
	// forks share it.
	given map[string][]byte
}

func newFileTable(m *machine, cfg vm.Config) *fileTable {
	ft := &fileTable{m: m, fs: map[string]*contents{}, fsSym: map[string][]*expr.Expr{}, byAddr: map[uint64]*vfile{},
		byFD: map[int]*vfile{}, stdout: cfg.Stdout, stderr: cfg.Stderr, cwd: "/", umask: defaultUmask,
		// Every system has a /tmp, and programs make their temporary
		// files there (mkstemp, tmpfile) without creating it first;
		// shm_open's objects are files in /dev/shm.
		dirs: map[string]bool{"/tmp": true, "/dev": true, "/dev/shm": true}}
	given := map[string][]byte{}
	for p, data := range cfg.Files {
		given[vpath("/", p)] = data
	}
	stdin, stdinSym := cfg.Stdin, []*expr.Expr(nil)
	if m.Symbolic() != nil {
		for name, n := range cfg.SymFiles {
			p := vpath("/", name)
			given[p], ft.fsSym[p] = m.SymbolicBytes(name, given[p], n)
		}
		if cfg.SymStdin > 0 {
			stdin, stdinSym = m.SymbolicBytes("stdin", cfg.Stdin, cfg.SymStdin)
		}
	} else {
		for name, n := range cfg.SymFiles { // replay: the inputs' values
			p := vpath("/", name)
			given[p] = m.ReplayBytes(name, given[p], n)
		}
		if cfg.SymStdin > 0 {
			stdin = m.ReplayBytes("stdin", cfg.Stdin, cfg.SymStdin)
		}
	}
	for p, data := range given { // shared with the configuration: copied before a write
		ft.fs[p] = newContents(data)
	}
	for p := range devices {
		if ft.fs[p] == nil {
			ft.fs[p] = &contents{}
		}
	}
	ft.given = given
	outMode := fullyBuffered
	if cfg.StdoutLineBuffered {
		outMode = lineBuffered
	}
	std := []*vfile{
		{fd: 0, data: newContents(stdin), sym: stdinSym, src: cfg.StdinReader, read: true, openDesc: ft.newDesc(false)},
		{fd: 1, mode: outMode, write: true, openDesc: ft.newDesc(false)},
		{fd: 2, mode: unbuffered, write: true, openDesc: ft.newDesc(false)},
	}
	for i, f := range std {
		f.stdFD = int8(i + 1)
	}
	// The runtime defines FILE __augur_stdfiles[3]; stdin/stdout/stderr
	// point at its elements.
	g := m.Program().GlobalByName("__augur_stdfiles")
	copy(ft.stdFiles[:], std)
	for i, name := range []string{"stdin", "stdout", "stderr"} {
		if v := m.Program().GlobalByName(name); v != nil {
			ft.stdVars[i] = ir.Addr(v.ID, 0)
		}
	}
	for i, f := range std {
		ft.byFD[i] = f
		if g != nil {
			ft.stdAddrs[i] = ir.Addr(g.ID, uint64(i)*(g.Size/3))
			ft.byAddr[ft.stdAddrs[i]] = f
		}
	}
	return ft
}

// stream returns the vfile of a FILE pointer.
func (ft *fileTable) stream(p uint64) (*vfile, error) {
	if f, ok := ft.byAddr[p]; ok {
		if g := ft.byFD[f.fd]; f.closed && g != nil {
			// Its descriptor was closed and the number given to another
			// file (close(1), then open): a stream writes to its number.
			ft.bindStreams(f, g)
			return g, nil
		}
		return f, nil
	}
	if p == 0 {
		return nil, vm.Terminate(vm.TermCrash, vm.SIGSEGV, "null FILE pointer passed to a stdio function")
	}
	return nil, vm.Terminate(vm.TermCrash, vm.SIGSEGV, "invalid or closed FILE pointer 0x%x", p)
}

// stdStream returns the stream the program's stdin, stdout or stderr
// (i) points at now: printf writes to the FILE stdout points at, which
// a program may point at a file of its own.
func (ft *fileTable) stdStream(i int) (*vfile, error) {
	if ft.stdVars[i] == 0 {
		return ft.stdFiles[i], nil
	}
	p, err := ft.m.ReadUint(ft.stdVars[i], 8)
	if err != nil {
		return nil, err
	}
	return ft.stream(p)
}

// bindStreams makes the streams of f (stdout, say) go on with g, a file
// opened or dup'd onto f's number: their buffering, what they buffer,
// and their end-of-file and pushed-back byte are the stream's, not the
// file's. Without a stream f, nothing changes.
func (ft *fileTable) bindStreams(f, g *vfile) {
	bound := false
	for p, s := range ft.byAddr {
		if s == f {
			ft.byAddr[p], bound = g, true
		}
	}
	if !bound {
		return
	}
	g.mode, g.pending, g.eof, g.unget = f.mode, f.pending, f.eof, f.unget
	f.pending = nil
}

// write appends program output to f, recording an output event for stdout
// and stderr, and flushes as f's buffering mode says. Writing anywhere but
// the run's own standard output or error, which no thread reads back,
// makes the order of the threads matter (vm.Model.Prints).
func (ft *fileTable) write(t *vm.Thread, f *vfile, b []byte) {
	if len(b) == 0 || f.closed {
		return
	}
	if !f.terminal() && ft.m.OrderOpen() {
		ft.m.NoteUnordered("it wrote to " + f.destination())
	}
	if f.terminal() {
		ft.m.NoteOutput(t, f.stdNum(), b)
	} else if f.path != "" && f.mem == nil && t != nil && !scratch(f.path) {
		ft.m.NoteFileWrite(t, f.path, b)
	}
	ft.m.Charge(uint64(len(b)))
	f.pending = append(f.pending, b...)
	switch f.mode {
	case unbuffered:
		ft.flush(t, f)
	case lineBuffered:
		if i := lastNewline(f.pending); i >= 0 {
			ft.flushN(t, f, i+1)
		}
	case fullyBuffered:
		if len(f.pending) >= stdioBufSize {
			ft.flushN(t, f, len(f.pending)/stdioBufSize*stdioBufSize)
		}
	}
}

// footprint is the bytes the virtual file system and the streams' buffers
// hold.
func (ft *fileTable) footprint() uint64 {
	var n uint64
	for _, d := range ft.fs {
		n += d.footprint()
	}
	for _, f := range ft.byFD {
		n += uint64(cap(f.pending))
	}
	for _, f := range ft.byAddr {
		if f.mem != nil {
			n += uint64(cap(f.pending)) + f.data.footprint()
		}
	}
	return n + ft.net.footprint()
}

// writeStream writes to the program's stdout or stderr (i: 1 or 2).
func (ft *fileTable) writeStream(t *vm.Thread, i int, b []byte) error {
	f, err := ft.stdStream(i)
	if err != nil {
		return err
	}
	ft.write(t, f, b)
	return nil
}

func lastNewline(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '\n' {
			return i
		}
	}
	return -1
}

func (ft *fileTable) flush(t *vm.Thread, f *vfile) { ft.flushN(t, f, len(f.pending)) }

// flushN delivers the first n pending bytes of f.
func (ft *fileTable) flushN(t *vm.Thread, f *vfile, n int) {
	if n == 0 {
		return
	}
	out := f.pending[:n]
	switch {
	case f.closed: // EBADF: lost
	case f.isNet():
		ft.m.flushToPipe(t, f, out)
	case f.mem != nil:
		f.writeMem(out)
	case f.path != "":
		ft.writeAt(f, out)
	case f.stdNum() == 1:
		if ft.stdout != nil {
			ft.stdout.Write(out)
		}
	case f.stdNum() == 2:
		if ft.stderr != nil {
			ft.stderr.Write(out)
		}
	}
	f.pending = append(f.pending[:0], f.pending[n:]...)
}

// writeAt writes b into f's file at f's position (at the end for a
// stream that appends), extending the file as needed, and moves the
// position past it.
func (ft *fileTable) writeAt(f *vfile, b []byte) {
	if f.appends {
		f.pos = ft.fs[f.path].len()
	}
	data := ft.store(f.path, f.pos, b)
	f.pos += len(b)
	if f.read {
		f.data = data
	}
}

// store writes b into the file at path at offset pos, extending it as
// needed, and returns its contents.
func (ft *fileTable) store(path string, pos int, b []byte) *contents {
	data := ft.fs[path]
	if _, dev := devices[path]; dev { // it takes every write and keeps nothing
		return data
	}
	if data == nil {
		data = &contents{}
		ft.fs[path] = data
	}
	data.writeAt(pos, b)
	if sym := ft.fsSym[path]; pos < len(sym) { // the bytes written are concrete now
		sym = append([]*expr.Expr(nil), sym...)
		clear(sym[pos:min(pos+len(b), len(sym))])
		for _, q := range ft.sameFile(path) {
			ft.fsSym[q] = sym
		}
	}
	return data
}

// refresh makes a file's reads see the contents its name has now: a
// stream holds its file's contents and sees writes through any other
// descriptor, but a truncating open (O_TRUNC, fopen "w") gives the name
// new contents. A file removed while f has it open keeps what f holds,
// as its inode would.
func (ft *fileTable) refresh(f *vfile) {
	if f.path == "" || f.mem != nil || f.unget != 0 {
		return
	}
	if data, ok := ft.fs[f.path]; ok {
		f.data, f.sym = data, ft.fsSym[f.path]
	}
}

// closeFD closes descriptor fd, which is open: its stream is flushed, and
// a pipe's or socket's end is released.
func (ft *fileTable) closeFD(t *vm.Thread, fd int) {
	f := ft.byFD[fd]
	ft.flush(t, f)
	delete(ft.byFD, fd)
	f.closed = true
	if f.isNet() {
		ft.m.closeNet(t, f)
	}
	ft.closedLocks(f)
	ft.released(f.path)
}

// closedLocks drops the file locks that go with f's close, and wakes the
// threads waiting for a lock on its file.
func (ft *fileTable) closedLocks(f *vfile) {
	for _, ino := range ft.dropLocks(f) {
		ft.m.Wake(vm.FileLockKey, ino)
	}
}

// freeFD returns the lowest descriptor number from min up that is not
// open, the one open, dup and F_DUPFD give (POSIX), so a program that
// closes and opens in a loop keeps its numbers small, as select needs.
func (ft *fileTable) freeFD(min int) int {
	fd := max(min, 0)
	for ft.byFD[fd] != nil {
		fd++
	}
	return fd
}

// devices are the device files a program finds, by the kind of what
// reads of them give: /dev/null ends at once, /dev/zero gives zeros, and
// /dev/urandom and /dev/random a pseudo-random stream, fixed for each
// open (the same every run, as getrandom's). What is written to any of
// them is gone (daemons and tests send their output to /dev/null).
var devices = map[string]byte{"/dev/null": devNull, "/dev/zero": devZero, "/dev/urandom": devRandom, "/dev/random": devRandom}

// The kinds of device (vfile.dev).
const (
	devNone byte = iota
	devNull
	devZero
	devRandom
)

// devByte is the next byte a read of device f gives.
func (f *vfile) devByte() int {
	if f.dev == devZero {
		return 0
	}
	x := f.rand
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	f.rand = x
	return int(x & 0xff)
}

// newDesc makes a new open file description, numbered.
func (ft *fileTable) newDesc(nonblock bool) *openDesc {
	ft.nextDesc++
	return &openDesc{desc: ft.nextDesc, nonblock: nonblock, rand: 0x9e3779b97f4a7c15 * ft.nextDesc}
}

// flushAll flushes every stream, as exit() does.
func (ft *fileTable) flushAll(t *vm.Thread) {
	fds := make([]int, 0, len(ft.byFD))
	for fd := range ft.byFD {
		fds = append(fds, fd)
	}
	sort.Ints(fds)
	for _, fd := range fds {
		ft.flush(t, ft.byFD[fd])
	}
}

// readSymByte reads one byte and, when it is a symbolic input, its term.
func (f *vfile) readSymByte() (int, *expr.Expr) {
	if e := f.symNext(); e != nil {
		f.pos++
		return int(f.data.at(f.pos - 1)), e
	}
	return f.readByte(), nil
}

// symNext is the term of the next byte when it is a symbolic one not yet
// read (none is pushed back), else nil.
func (f *vfile) symNext() *expr.Expr {
	if f.unget != 0 || f.pos >= len(f.sym) {
		return nil
	}
	return f.sym[f.pos]
}

// readByte reads one byte from f, or -1 at end of input. A symbolic byte
// reads as its seed value; models that need its real constraints use
// readSymByte.
func (f *vfile) readByte() int {
	if f.unget != 0 {
		c := f.unget - 1
		f.unget = 0
		return c
	}
	if f.dev > devNull {
		return f.devByte()
	}
	if f.pos >= f.data.len() && f.src != nil {
		buf := make([]byte, 4096)
		n, err := f.src.Read(buf)
		f.data = newContents(buf[:n]) // what was read before is consumed
		f.pos = 0
		if err != nil {
			f.src = nil
		}
	}
	if f.pos >= f.data.len() {
		f.eof, f.drained = true, true
		return -1
	}
	c := f.data.at(f.pos)
	f.pos++
	return int(c)
}

// fork copies the open streams and the virtual file system; a fork's
// output goes to its own events only, never to the real stdout.
func (ft *fileTable) fork(m *machine) *fileTable {
	c := &fileTable{m: m, fs: map[string]*contents{}, fsSym: map[string][]*expr.Expr{}, byAddr: map[uint64]*vfile{},
		byFD: map[int]*vfile{}, net: ft.net.fork(),
		dirs: maps.Clone(ft.dirs), inodes: maps.Clone(ft.inodes), nextIno: ft.nextIno, hasLinks: ft.hasLinks, cwd: ft.cwd,
		perms: maps.Clone(ft.perms), umask: ft.umask,
		// The values of these are replaced, never written in place.
		fifos: maps.Clone(ft.fifos), symlinks: maps.Clone(ft.symlinks), mappings: maps.Clone(ft.mappings), locks: maps.Clone(ft.locks),
		nextDesc: ft.nextDesc, missing: maps.Clone(ft.missing), given: ft.given}
	for p, l := range ft.listings {
		if c.listings == nil {
			c.listings = map[uint64]*listing{}
		}
		x := *l // the entries are never written: only the position is the fork's own
		c.listings[p] = &x
	}
	for p, t := range ft.fsSym {
		c.fsSym[p] = t // terms are immutable; the slice is never written
	}
	// Both tables share every chunk of every file now, and each copies a
	// chunk before writing it. A stream's contents are its file's when it
	// has them, or its own (stdin, a memory stream, a removed file).
	forked := map[*contents]*contents{}
	for p, d := range ft.fs {
		if x, ok := forked[d]; ok { // another name of the same file (a hard link)
			c.fs[p] = x
			continue
		}
		c.fs[p] = d.fork()
		forked[d] = c.fs[p]
	}
	copies := map[*vfile]*vfile{}
	descs := map[*openDesc]*openDesc{} // a description its dups share stays shared
	dup := func(f *vfile) *vfile {
		if x, ok := copies[f]; ok {
			return x
		}
		x := *f
		if d, ok := descs[f.openDesc]; ok {
			x.openDesc = d
		} else {
			d := *f.openDesc
			x.openDesc = &d
			descs[f.openDesc] = &d
		}
		x.pending = append([]byte(nil), f.pending...)
		if d, ok := forked[f.data]; ok {
			x.data = d
		} else if f.data != nil {
			x.data = f.data.fork()
			forked[f.data] = x.data
		}
		x.src = nil // a fork cannot read more of the real stdin
		if f.mem != nil {
			ms := *f.mem
			x.mem = &ms
		}
		copies[f] = &x
		return &x
	}
	for a, f := range ft.byAddr {
		c.byAddr[a] = dup(f)
	}
	for fd, f := range ft.byFD {
		c.byFD[fd] = dup(f)
	}
	for i, f := range ft.stdFiles {
		c.stdFiles[i] = dup(f)
	}
	c.stdVars, c.stdAddrs = ft.stdVars, ft.stdAddrs
	return c
}

// closeOwnedBy closes the descriptors process proc opened, in order.
func (ft *fileTable) closeOwnedBy(proc int) {
	var fds []int
	for fd, f := range ft.byFD {
		if f.proc == proc {
			fds = append(fds, fd)
		}
	}
	slices.Sort(fds)
	for _, fd := range fds {
		ft.closeFD(nil, fd) // the process has no thread left
	}
}
