package libc

import (
	"slices"
	"strconv"
	"strings"

	"augur/analyzer/exec/expr"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// eof is C's EOF as an int register.
const eof = 0xffffffff

// printfArgs returns the argument source of a printf-family call whose format
// is argument i: the call's own variadic arguments, or a va_list (argument
// i+1) for the v* variants.
func (m *machine) printfArgs(in *ir.Inst, a []vm.Value, i int, va bool) (argSource, error) {
	if va {
		return m.vaList(a[i+1].Bits)
	}
	return &callArgs{vals: a[i+1:], tys: in.ArgTys[i+1:]}, nil
}

func (m *machine) formatCall(t *vm.Thread, in *ir.Inst, a []vm.Value, i int, va bool) ([]byte, error) {
	f, err := m.CString(a[i].Bits)
	if err != nil {
		return nil, err
	}
	src, err := m.printfArgs(in, a, i, va)
	if err != nil {
		return nil, err
	}
	return m.format(t, f, src)
}

func (tab table) addStdio() {
	printfTo := func(streamArg int, va bool) ioModel {
		return func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
			fmtIdx := 0
			var f *vfile
			var err error
			switch streamArg {
			case 0: // printf: stdout
				if f, err = m.files.stdStream(1); err != nil {
					return err
				}
			case 1: // fprintf(FILE*, ...)
				fmtIdx = 1
				if f, err = m.files.stream(a[0].Bits); err != nil {
					return err
				}
			case 2: // dprintf(fd, ...)
				fmtIdx = 1
				f = m.files.byFD[int(a[0].Bits&0xffffffff)]
				if f == nil {
					vm.SetResult(res, eof)
					return nil
				}
			}
			terms, err := m.SymbolicPrintArgs(a, fmtIdx+1)
			if err != nil {
				return err
			}
			out, err := m.formatCall(t, in, a, fmtIdx, va)
			if err != nil {
				return err
			}
			before := m.OutputLen()
			m.files.write(t, f, out)
			if terms != nil && m.OutputLen() > before { // recorded
				format, _ := m.CString(a[fmtIdx].Bits)
				m.AnnotateOutput(format, terms)
			}
			vm.SetResult(res, uint64(len(out)))
			return nil
		}
	}
	// printf keeps symbolic arguments as terms of its output event; its
	// format and stream are made concrete by the model itself.
	tab.registerIO(printfTo(0, false), "printf").Symbolic().Prints()
	tab.registerIO(printfTo(0, true), "vprintf").Prints()
	tab.registerIO(printfTo(1, false), "fprintf").Symbolic().Prints()
	tab.registerIO(printfTo(1, true), "vfprintf").Prints()
	tab.registerIO(printfTo(2, false), "dprintf").Symbolic()
	tab.registerIO(printfTo(2, true), "vdprintf")
	sprintf := func(bounded, va bool) ioModel {
		return func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
			fmtIdx, n := 1, uint64(0)
			if bounded {
				fmtIdx, n = 2, a[1].Bits
			}
			out, err := m.formatCall(t, in, a, fmtIdx, va)
			if err != nil {
				return err
			}
			vm.SetResult(res, uint64(len(out)))
			return m.StoreString(a[0].Bits, out, n, bounded)
		}
	}
	tab.registerIO(sprintf(false, false), "sprintf")
	tab.registerIO(sprintf(false, true), "vsprintf")
	tab.registerIO(sprintf(true, false), "snprintf")
	tab.registerIO(sprintf(true, true), "vsnprintf")

	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		s, err := m.CString(a[0].Bits)
		if err != nil {
			return err
		}
		vm.SetResult(res, 1)
		return m.files.writeStream(t, 1, []byte(s+"\n"))
	}, "puts").Prints()
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		vm.SetResult(res, a[0].Bits&0xff)
		return m.files.writeStream(t, 1, []byte{byte(a[0].Bits)})
	}, "putchar", "putchar_unlocked").Prints()
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f, err := m.files.stream(a[1].Bits)
		if err != nil {
			return err
		}
		m.files.write(t, f, []byte{byte(a[0].Bits)})
		vm.SetResult(res, a[0].Bits&0xff)
		return nil
	}, "fputc", "putc", "fputc_unlocked", "putc_unlocked").Prints()
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		s, err := m.CString(a[0].Bits)
		if err != nil {
			return err
		}
		f, err := m.files.stream(a[1].Bits)
		if err != nil {
			return err
		}
		m.files.write(t, f, []byte(s))
		vm.SetResult(res, 1)
		return nil
	}, "fputs", "fputs_unlocked").Prints()
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		size, n := a[1].Bits, a[2].Bits
		f, err := m.files.stream(a[3].Bits)
		if err != nil {
			return err
		}
		if err := m.ConcreteBytes(a[0].Bits, size*n); err != nil {
			return err
		}
		b, err := m.ReadBytes(a[0].Bits, size*n)
		if err != nil {
			return err
		}
		m.NoteAccess(a[0].Bits, size*n, vm.Read)
		m.files.write(t, f, append([]byte(nil), b...))
		vm.SetResult(res, n)
		return nil
	}, "fwrite", "fwrite_unlocked").Prints()
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		vm.SetResult(res, 0)
		if a[0].Bits == 0 {
			m.NoteUnordered("it flushed every stream")
			m.files.flushAll(t)
			return m.publishAll(t)
		}
		f, err := m.files.stream(a[0].Bits)
		if err != nil {
			return err
		}
		if !f.terminal() && m.OrderOpen() {
			m.NoteUnordered("it flushed " + f.destination())
		}
		return m.publishMem(t, f)
	}, "fflush", "fflush_unlocked").Prints()
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f, err := m.files.stream(a[0].Bits)
		if err != nil {
			return err
		}
		m.files.flush(t, f)
		switch mode := a[2].Bits & 0xffffffff; {
		case a[1].Bits == 0 && mode == 2, mode == 2: // _IONBF
			f.mode = unbuffered
		case mode == 1: // _IOLBF
			f.mode = lineBuffered
		default:
			f.mode = fullyBuffered
		}
		vm.SetResult(res, 0)
		return nil
	}, "setvbuf")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f, err := m.files.stream(a[0].Bits)
		if err != nil {
			return err
		}
		if a[1].Bits == 0 {
			m.files.flush(t, f)
			f.mode = unbuffered
		}
		return nil
	}, "setbuf")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		fd := int(a[0].Bits & 0xffffffff)
		f := m.files.byFD[fd]
		if f != nil && f.isNet() {
			return m.netWrite(t, in, f, a[1].Bits, a[2].Bits, res)
		}
		if f == nil || !f.write {
			vm.SetResult(res, ir.Mask(64))
			return m.SetErrno(t, vm.EBADF)
		}
		end, err := m.writeDirect(t, f, a[1].Bits, a[2].Bits, f.pos)
		if err != nil {
			return err
		}
		if f.path != "" { // the descriptor's offset moves past what it wrote
			f.pos = end
		}
		vm.SetResult(res, a[2].Bits)
		return nil
	}, "write")
	// pread and pwrite read and write at an offset, leaving the
	// descriptor's where it was, in one step: threads that share a
	// descriptor do not move each other's reads.
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f, err := m.positioned(t, a, false, res)
		if f == nil {
			return err
		}
		pos, eof, unget := f.pos, f.eof, f.unget
		f.pos, f.unget = int(a[3].Bits), 0
		err = m.readInto(f, a[1].Bits, 1, a[2].Bits, res)
		f.pos, f.eof, f.unget = pos, eof, unget
		return err
	}, "pread", "pread64")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f, err := m.positioned(t, a, true, res)
		if f == nil {
			return err
		}
		if _, err := m.writeDirect(t, f, a[1].Bits, a[2].Bits, int(a[3].Bits)); err != nil {
			return err
		}
		vm.SetResult(res, a[2].Bits)
		return nil
	}, "pwrite", "pwrite64")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		fd := int(int32(a[0].Bits))
		f := m.files.byFD[fd]
		if f == nil {
			return fail(m, t, res, vm.EBADF)
		}
		m.files.closeFD(t, fd)
		vm.SetResult(res, 0)
		return nil
	}, "close")
	tab.registerInput()
	tab.registerFiles()
}

func (tab table) registerInput() {
	getc := func(m *machine, f *vfile, res []vm.Value) error {
		c, sym := f.readSymByte()
		switch {
		case c < 0:
			vm.SetResult(res, eof)
		case sym != nil && len(res) > 0:
			res[0] = vm.Value{Sym: m.Terms().ZExt(sym, 32)}
		default:
			vm.SetResult(res, uint64(c))
		}
		return nil
	}
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f, err := m.files.stdStream(0)
		if err != nil {
			return err
		}
		if err := m.fillStream(t, f, atLeast(1)); err != nil {
			return err
		}
		return getc(m, f, res)
	}, "getchar", "getchar_unlocked")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f, err := m.files.stream(a[0].Bits)
		if err != nil {
			return err
		}
		if err := m.fillStream(t, f, atLeast(1)); err != nil {
			return err
		}
		return getc(m, f, res)
	}, "fgetc", "getc", "getc_unlocked", "fgetc_unlocked")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f, err := m.files.stream(a[1].Bits)
		if err != nil {
			return err
		}
		if c := a[0].Bits & 0xffffffff; c != eof {
			f.unget = int(c&0xff) + 1
			f.eof = false
		}
		vm.SetResult(res, a[0].Bits)
		return nil
	}, "ungetc")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		size, n := a[1].Bits, a[2].Bits
		f, err := m.files.stream(a[3].Bits)
		if err != nil {
			return err
		}
		if size != 0 && n != 0 {
			if err := m.fillStream(t, f, atLeast(size*min(n, 1<<40/size))); err != nil {
				return err
			}
		}
		return m.readInto(f, a[0].Bits, size, n, res)
	}, "fread", "fread_unlocked")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f := m.files.byFD[int(a[0].Bits&0xffffffff)]
		if f != nil && f.isNet() {
			return m.netRead(t, in, f, a[1].Bits, a[2].Bits, res)
		}
		if f != nil && f.dir {
			vm.SetResult(res, ir.Mask(64))
			return m.SetErrno(t, vm.EISDIR)
		}
		if f == nil || !f.read {
			vm.SetResult(res, ir.Mask(64))
			return m.SetErrno(t, vm.EBADF)
		}
		return m.readInto(f, a[1].Bits, 1, a[2].Bits, res)
	}, "read")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f, err := m.files.stream(a[0].Bits)
		if err != nil {
			return err
		}
		vm.SetResult(res, b2u(f.eof))
		return nil
	}, "feof", "feof_unlocked")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		if _, err := m.files.stream(a[0].Bits); err != nil {
			return err
		}
		vm.SetResult(res, 0)
		return nil
	}, "ferror", "ferror_unlocked")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f, err := m.files.stream(a[0].Bits)
		if err != nil {
			return err
		}
		f.eof = false
		return nil
	}, "clearerr")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f, err := m.files.stream(a[0].Bits)
		if err != nil {
			return err
		}
		if f.mem != nil {
			return fail(m, t, res, vm.EBADF)
		}
		vm.SetResult(res, uint64(f.fd))
		return nil
	}, "fileno")
}

// readInto reads up to size*n bytes of f into memory at p; the result is the
// number of whole items read.
func (m *machine) readInto(f *vfile, p, size, n uint64, res []vm.Value) error {
	if size == 0 || n == 0 {
		vm.SetResult(res, 0)
		return nil
	}
	m.files.refresh(f)
	want := size * n
	m.Charge(want)
	var got []byte
	var terms []*expr.Expr
	for uint64(len(got)) < want {
		c, e := f.readSymByte()
		if c < 0 {
			break
		}
		if e != nil && terms == nil {
			terms = make([]*expr.Expr, len(got), want)
		}
		if terms != nil {
			terms = append(terms, e)
		}
		got = append(got, byte(c))
	}
	if len(got) > 0 {
		if err := m.WriteBytes(p, got); err != nil {
			return err
		}
		if err := m.SetSymBytes(p, got, terms); err != nil {
			return err
		}
		m.NoteAccess(p, uint64(len(got)), vm.Write)
	}
	vm.SetResult(res, uint64(len(got))/size)
	return nil
}

func (tab table) registerFiles() {
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		path, failed, err := m.kernelPath(t, res, a[0].Bits, 0) // fopen's open(2) reads it
		if failed {
			return err
		}
		mode, err := m.CString(a[1].Bits)
		if err != nil {
			return err
		}
		vm.SetResult(res, 0)
		f, errno, err := m.files.openStream(path, mode)
		if err != nil {
			return err
		}
		if errno != 0 {
			if errno == vm.ENOENT && strings.HasPrefix(mode, "r") { // not a file to make
				m.files.noteMissing(path, m.ProgramLoc(t, in.Loc))
			}
			return m.SetErrno(t, errno)
		}
		f.fd, f.proc = m.files.freeFD(0), m.Proc()
		addr := m.Alloc(vm.ObjHeap, 216, "FILE "+path, in.Loc, t, nil)
		m.files.byAddr[addr] = f
		m.files.byFD[f.fd] = f
		vm.SetResult(res, addr)
		return nil
	}, "fopen", "fopen64")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		old, err := m.files.stream(a[2].Bits)
		if err != nil {
			return err
		}
		mode, err := m.CString(a[1].Bits)
		if err != nil {
			return err
		}
		if err := m.publishMem(t, old); err != nil {
			return err
		}
		vm.SetResult(res, 0)
		if a[0].Bits == 0 {
			// Only the mode changes; augur's streams take any access,
			// so the stream goes on as it is.
			vm.SetResult(res, a[2].Bits)
			return nil
		}
		path, err := m.pathArg(a[0].Bits)
		if err != nil {
			return err
		}
		// The stream is closed whether or not the open succeeds; the new
		// file takes its descriptor, as glibc's dup3 gives it, and its
		// FILE stays where it was.
		if m.files.byFD[old.fd] == old {
			m.files.closeFD(t, old.fd)
		}
		f, errno, err := m.files.openStream(path, mode)
		if err != nil {
			return err
		}
		if errno != 0 {
			if errno == vm.ENOENT && strings.HasPrefix(mode, "r") { // not a file to make
				m.files.noteMissing(path, m.ProgramLoc(t, in.Loc))
			}
			delete(m.files.byAddr, a[2].Bits)
			return m.SetErrno(t, errno)
		}
		f.fd, f.proc = old.fd, m.Proc()
		if f.fd < 0 { // a memory stream had none
			f.fd = m.files.freeFD(0)
		}
		m.files.byAddr[a[2].Bits] = f
		m.files.byFD[f.fd] = f
		vm.SetResult(res, a[2].Bits)
		return nil
	}, "freopen", "freopen64")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f, err := m.files.stream(a[0].Bits)
		if err != nil {
			return err
		}
		if err := m.publishMem(t, f); err != nil {
			return err
		}
		delete(m.files.byAddr, a[0].Bits)
		if f.fd >= 0 && m.files.byFD[f.fd] == f {
			m.files.closeFD(t, f.fd)
		}
		vm.SetResult(res, 0)
		if slices.Contains(m.files.stdAddrs[:], a[0].Bits) { // the FILE is the runtime's own
			return nil
		}
		return m.Free(t, a[0].Bits, in.Loc, "fclose")
	}, "fclose")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		s := ""
		if a[0].Bits != 0 {
			var err error
			if s, err = m.CString(a[0].Bits); err != nil {
				return err
			}
		}
		e, err := m.ErrnoAddr(t)
		if err != nil {
			return err
		}
		code, _ := m.ReadUint(e, 4)
		msg := strerror(int(code))
		if s != "" {
			msg = s + ": " + msg
		}
		return m.files.writeStream(t, 2, []byte(msg+"\n"))
	}, "perror")
}

// position returns a stream's offset: the read position, or for a stream
// that writes, the file's size with what is still buffered.
func (ft *fileTable) position(f *vfile) int64 {
	if f.std() && f.write { // stdout, stderr: what was written
		return int64(len(f.pending))
	}
	if len(f.pending) > 0 {
		if f.appends {
			return int64(ft.fs[f.path].len() + len(f.pending))
		}
		return int64(f.pos + len(f.pending))
	}
	pos := int64(f.pos)
	if f.unget != 0 {
		pos--
	}
	return pos
}

func (tab table) addStreamPositions() {
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f, err := m.files.stream(a[0].Bits)
		if err != nil {
			return err
		}
		vm.SetResult(res, uint64(m.files.position(f)))
		return nil
	}, "ftell", "ftello", "ftello64")
	seek := func(m *machine, t *vm.Thread, f *vfile, off int64, whence uint64) (uint64, error) {
		if err := m.publishMem(t, f); err != nil {
			return 0, err
		}
		f.unget, f.eof = 0, false
		if f.std() && !f.read {
			return 0, nil // stdout, stderr: nothing to seek in
		}
		if f.path != "" {
			f.data = m.files.fs[f.path]
		}
		base := int64(0)
		switch whence {
		case 1: // SEEK_CUR
			base = int64(f.pos)
		case 2: // SEEK_END
			base = int64(f.data.len())
		}
		pos := base + off
		if pos < 0 || f.mem != nil && f.mem.ptrLoc == 0 && uint64(pos) > f.mem.size { // past fmemopen's buffer
			return ir.Mask(32), m.SetErrno(t, vm.EINVAL)
		}
		f.pos = int(pos)
		return 0, nil
	}
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f, err := m.files.stream(a[0].Bits)
		if err != nil {
			return err
		}
		r, err := seek(m, t, f, int64(a[1].Bits), a[2].Bits&0xffffffff)
		vm.SetResult(res, r)
		return err
	}, "fseek", "fseeko", "fseeko64")
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		f, err := m.files.stream(a[0].Bits)
		if err != nil {
			return err
		}
		_, err = seek(m, t, f, 0, 0)
		return err
	}, "rewind")
}

func (tab table) addErrorStrings() {
	tab.registerIO(func(m *machine, t *vm.Thread, in *ir.Inst, a, res []vm.Value) error {
		code := int(int32(a[0].Bits))
		if addr, ok := m.errStrings[code]; ok {
			vm.SetResult(res, addr)
			return nil
		}
		msg := strerror(code)
		addr := m.Alloc(vm.ObjGlobal, uint64(len(msg)+1), "strerror text", 0, t, []byte(msg))
		if m.errStrings == nil {
			m.errStrings = map[int]uint64{}
		}
		m.errStrings[code] = addr
		vm.SetResult(res, addr)
		return nil
	}, "strerror")
}

// errorTexts are glibc's strerror messages (Linux x86-64 errno values).
var errorTexts = map[int]string{
	0:   "Success",
	1:   "Operation not permitted",
	2:   "No such file or directory",
	3:   "No such process",
	4:   "Interrupted system call",
	5:   "Input/output error",
	6:   "No such device or address",
	7:   "Argument list too long",
	8:   "Exec format error",
	9:   "Bad file descriptor",
	10:  "No child processes",
	11:  "Resource temporarily unavailable",
	12:  "Cannot allocate memory",
	13:  "Permission denied",
	14:  "Bad address",
	15:  "Block device required",
	16:  "Device or resource busy",
	17:  "File exists",
	18:  "Invalid cross-device link",
	19:  "No such device",
	20:  "Not a directory",
	21:  "Is a directory",
	22:  "Invalid argument",
	23:  "Too many open files in system",
	24:  "Too many open files",
	25:  "Inappropriate ioctl for device",
	26:  "Text file busy",
	27:  "File too large",
	28:  "No space left on device",
	29:  "Illegal seek",
	30:  "Read-only file system",
	31:  "Too many links",
	32:  "Broken pipe",
	33:  "Numerical argument out of domain",
	34:  "Numerical result out of range",
	35:  "Resource deadlock avoided",
	36:  "File name too long",
	37:  "No locks available",
	38:  "Function not implemented",
	39:  "Directory not empty",
	40:  "Too many levels of symbolic links",
	42:  "No message of desired type",
	43:  "Identifier removed",
	44:  "Channel number out of range",
	45:  "Level 2 not synchronized",
	46:  "Level 3 halted",
	47:  "Level 3 reset",
	48:  "Link number out of range",
	49:  "Protocol driver not attached",
	50:  "No CSI structure available",
	51:  "Level 2 halted",
	52:  "Invalid exchange",
	53:  "Invalid request descriptor",
	54:  "Exchange full",
	55:  "No anode",
	56:  "Invalid request code",
	57:  "Invalid slot",
	59:  "Bad font file format",
	60:  "Device not a stream",
	61:  "No data available",
	62:  "Timer expired",
	63:  "Out of streams resources",
	64:  "Machine is not on the network",
	65:  "Package not installed",
	66:  "Object is remote",
	67:  "Link has been severed",
	68:  "Advertise error",
	69:  "Srmount error",
	70:  "Communication error on send",
	71:  "Protocol error",
	72:  "Multihop attempted",
	73:  "RFS specific error",
	74:  "Bad message",
	75:  "Value too large for defined data type",
	76:  "Name not unique on network",
	77:  "File descriptor in bad state",
	78:  "Remote address changed",
	79:  "Can not access a needed shared library",
	80:  "Accessing a corrupted shared library",
	81:  ".lib section in a.out corrupted",
	82:  "Attempting to link in too many shared libraries",
	83:  "Cannot exec a shared library directly",
	84:  "Invalid or incomplete multibyte or wide character",
	85:  "Interrupted system call should be restarted",
	86:  "Streams pipe error",
	87:  "Too many users",
	88:  "Socket operation on non-socket",
	89:  "Destination address required",
	90:  "Message too long",
	91:  "Protocol wrong type for socket",
	92:  "Protocol not available",
	93:  "Protocol not supported",
	94:  "Socket type not supported",
	95:  "Operation not supported",
	96:  "Protocol family not supported",
	97:  "Address family not supported by protocol",
	98:  "Address already in use",
	99:  "Cannot assign requested address",
	100: "Network is down",
	101: "Network is unreachable",
	102: "Network dropped connection on reset",
	103: "Software caused connection abort",
	104: "Connection reset by peer",
	105: "No buffer space available",
	106: "Transport endpoint is already connected",
	107: "Transport endpoint is not connected",
	108: "Cannot send after transport endpoint shutdown",
	109: "Too many references: cannot splice",
	110: "Connection timed out",
	111: "Connection refused",
	112: "Host is down",
	113: "No route to host",
	114: "Operation already in progress",
	115: "Operation now in progress",
	116: "Stale file handle",
	117: "Structure needs cleaning",
	118: "Not a XENIX named type file",
	119: "No XENIX semaphores available",
	120: "Is a named type file",
	121: "Remote I/O error",
	122: "Disk quota exceeded",
	123: "No medium found",
	124: "Wrong medium type",
	125: "Operation canceled",
	126: "Required key not available",
	127: "Key has expired",
	128: "Key has been revoked",
	129: "Key was rejected by service",
	130: "Owner died",
	131: "State not recoverable",
	132: "Operation not possible due to RF-kill",
	133: "Memory page has hardware error",
}

func strerror(code int) string {
	if s, ok := errorTexts[code]; ok {
		return s
	}
	return "Unknown error " + strconv.Itoa(code)
}

// openStream opens the file at path (a vpath) as fopen's mode says, or
// returns the errno of the failure (or, for a FIFO, the end of the run);
// the caller gives it its descriptor.
func (ft *fileTable) openStream(path, mode string) (*vfile, int, error) {
	if _, fifo := ft.fifos[path]; fifo {
		return nil, 0, vm.Unsupported("fopen of the FIFO %s: stdio streams over pipes are not modeled (open, read and write are)", path)
	}
	f := &vfile{path: path, mode: fullyBuffered, openDesc: ft.newDesc(false), cloexec: strings.Contains(mode, "e"),
		dev: devices[path]}
	data, exists := ft.fs[path]
	switch {
	case !exists && ft.isDir(path):
		return nil, vm.EISDIR, nil // reading a directory as a stream is not modeled either
	case !exists && !strings.HasPrefix(mode, "r") && !ft.isDir(pathDir(path)):
		return nil, ft.absentErrno(path), nil // no directory to make the file in
	case strings.HasPrefix(mode, "r"):
		if !exists {
			return nil, ft.absentErrno(path), nil
		}
		f.read = true
		f.write = strings.Contains(mode, "+")
		f.data = data
		f.sym = ft.fsSym[path]
	case strings.HasPrefix(mode, "w"):
		if !exists {
			ft.created(path, 0o666)
		}
		ft.truncateName(path)
		f.write = true
		f.read = strings.Contains(mode, "+")
	case strings.HasPrefix(mode, "a"):
		if !exists {
			ft.fs[path] = &contents{}
			ft.created(path, 0o666)
		}
		f.write, f.appends = true, true
		f.read = strings.Contains(mode, "+")
		f.data = ft.fs[path]
	default:
		return nil, vm.EINVAL, nil
	}
	return f, 0, nil
}

// writeDirect writes the n bytes at p to f's file at pos (at its end when
// f appends, as Linux's pwrite does too), ahead of whatever a stream of it
// still buffers, as write(2) bypasses stdio, and returns where the write
// ended.
func (m *machine) writeDirect(t *vm.Thread, f *vfile, p, n uint64, pos int) (int, error) {
	b, err := m.written(p, n)
	if err != nil {
		return 0, err
	}
	// The write goes through a copy of the descriptor, unbuffered and at
	// pos, so it lands where f's does (a file, the terminal, a device)
	// without touching what f's stream buffers or f's offset.
	direct, desc := *f, *f.openDesc
	desc.pos = pos
	direct.openDesc, direct.mode, direct.pending, direct.read = &desc, unbuffered, nil, false
	m.files.write(t, &direct, append([]byte(nil), b...))
	if f.path != "" && f.read {
		f.data = m.files.fs[f.path]
	}
	return direct.pos, nil
}

// positioned checks pread's or pwrite's descriptor and offset: it returns
// the descriptor's file, or nil with the call ended (EBADF, ESPIPE for a
// pipe, socket or standard stream, EISDIR, EINVAL for a negative offset).
func (m *machine) positioned(t *vm.Thread, a []vm.Value, write bool, res []vm.Value) (*vfile, error) {
	f := m.files.byFD[int(int32(a[0].Bits))]
	switch {
	case f == nil || write && !f.write || !write && !f.read:
		return nil, fail(m, t, res, vm.EBADF)
	case f.isNet() || f.std() || f.mem != nil:
		return nil, fail(m, t, res, vm.ESPIPE)
	case f.dir:
		return nil, fail(m, t, res, vm.EISDIR)
	case int64(a[3].Bits) < 0:
		return nil, fail(m, t, res, vm.EINVAL)
	}
	return f, nil
}
