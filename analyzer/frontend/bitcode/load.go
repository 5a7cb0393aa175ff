package bitcode

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"
	"unsafe"

	"tinygo.org/x/go-llvm"

	"augur/analyzer/frontend/ir"
)

// loader holds the LLVM state while a program is lowered.
type loader struct {
	ctx        llvm.Context
	mod        llvm.Module
	td         llvm.TargetData
	prog       *ir.Program
	ids        map[unsafe.Pointer]uint32 // global value -> object id
	fieldCache map[unsafe.Pointer][]ir.Field
	locIndex   map[ir.Loc]ir.LocID
	scopeFile  map[unsafe.Pointer]string
	// allowTLS lets constant evaluation take the address of a thread-local
	// global (as if its instance were at offset 0 of its id); sawTLS names
	// the one it met. Instructions use this to address into thread-locals.
	allowTLS bool
	sawTLS   uint32
	// blockNums numbers the blocks of the functions whose labels'
	// addresses constants take (indirect.go), by function.
	blockNums map[unsafe.Pointer]map[unsafe.Pointer]int
}

func ptrKey(v llvm.Value) unsafe.Pointer { return unsafe.Pointer(v.C) }

// Load reads and links the bitcode files (.bc or textual .ll) and lowers the
// result. Functions and globals get object ids in module order, so the same
// inputs always produce the same addresses.
func Load(paths []string) (*ir.Program, error) { return LoadNamed(paths, nil) }

// LoadNamed is Load with the names messages give the files (the sources
// augur compiled them from), by path. A panic in the lowering (a construct
// the loader does not expect) is an error carrying its stack, so that the
// command reports it and the language server goes on.
func LoadNamed(paths []string, names map[string]string) (prog *ir.Program, err error) {
	defer func() {
		if p := recover(); p != nil {
			prog, err = nil, fmt.Errorf("internal error in augur's loader (please report it): %v\n%s", p, debug.Stack())
		}
	}()
	if len(paths) == 0 {
		return nil, errors.New("load: no bitcode")
	}
	ctx := llvm.NewContext()
	diag := catchDiagnostics(ctx)
	defer diag.free()
	defer ctx.Dispose()
	mod, err := linkFiles(ctx, paths, names, diag)
	if err != nil {
		return nil, err
	}
	defer mod.Dispose()
	if err := promoteLocals(mod); err != nil {
		return nil, err
	}
	if err := inlinePureLeaves(mod); err != nil {
		return nil, err
	}
	shareComputations(mod)
	l := &loader{
		ctx: ctx, mod: mod,
		td:         llvm.NewTargetData(mod.DataLayout()),
		ids:        map[unsafe.Pointer]uint32{},
		fieldCache: map[unsafe.Pointer][]ir.Field{},
		locIndex:   map[ir.Loc]ir.LocID{},
		scopeFile:  map[unsafe.Pointer]string{},
		prog:       ir.NewProgram(),
	}
	defer l.td.Dispose()
	if err := l.lowerModule(); err != nil {
		return nil, err
	}
	l.prog.Bitcode, l.prog.Names = append([]string(nil), paths...), names
	return l.prog, nil
}

// promoteLocals runs LLVM's mem2reg: scalar locals whose address never
// escapes their function move from stack slots into registers. clang -O0
// keeps every local in memory, so this removes most loads and stores the
// interpreter would execute, and none that another thread could observe (an
// alloca whose address is taken, stored or passed anywhere stays in memory,
// as do arrays and structs). Sources are compiled with
// -disable-O0-optnone so the pass applies.
func promoteLocals(mod llvm.Module) error {
	opts := llvm.NewPassBuilderOptions()
	defer opts.Dispose()
	if err := mod.RunPasses("mem2reg", llvm.TargetMachine{}, opts); err != nil {
		return fmt.Errorf("load: mem2reg: %w", err)
	}
	return nil
}

// linkFiles parses the bitcode files and links them into one module, the
// first's, which the caller disposes of.
func linkFiles(ctx llvm.Context, paths []string, names map[string]string, diag *diagnostics) (llvm.Module, error) {
	var mod llvm.Module
	for i, p := range paths {
		m, err := parse(ctx, p, names[p], diag)
		if err != nil {
			if i > 0 {
				mod.Dispose()
			}
			return llvm.Module{}, err
		}
		if i == 0 {
			mod = m
			continue
		}
		if err := llvm.LinkModules(mod, m); err != nil {
			mod.Dispose()
			if e := diag.take(); e != nil {
				err = e
			}
			return llvm.Module{}, fmt.Errorf("link %s: %w", nameOf(p, names), err)
		}
	}
	return mod, nil
}

func parse(ctx llvm.Context, path, name string, diag *diagnostics) (llvm.Module, error) {
	if name == "" {
		name = path
	}
	if strings.HasSuffix(path, ".ll") {
		buf, err := llvm.NewMemoryBufferFromFile(path)
		if err != nil {
			return llvm.Module{}, fmt.Errorf("load %s: %w", name, err)
		}
		m, err := (&ctx).ParseIR(buf)
		if err != nil {
			return llvm.Module{}, fmt.Errorf("load %s: %w", name, err)
		}
		return m, nil
	}
	m, err := parseBitcodeFile(ctx, path, diag)
	if err != nil {
		return llvm.Module{}, fmt.Errorf("load %s: %w", name, err)
	}
	return m, nil
}

// nameOf is how messages call a bitcode file.
func nameOf(path string, names map[string]string) string {
	if n := names[path]; n != "" {
		return n
	}
	return path
}

// signature sets fn's parameters and results from its LLVM function type.
func (l *loader) signature(fn *ir.Function, ft llvm.Type) error {
	for _, pt := range ft.ParamTypes() {
		if pt.TypeKind() == llvm.MetadataTypeKind {
			continue // debug intrinsics; their calls are dropped
		}
		fs, err := l.fields(pt)
		if err != nil {
			return fmt.Errorf("function %s: parameter: %w", fn.Name, err)
		}
		for _, x := range fs {
			fn.Params = append(fn.Params, x.Scalar)
		}
	}
	rs, err := l.fields(ft.ReturnType())
	if err != nil {
		return fmt.Errorf("function %s: return: %w", fn.Name, err)
	}
	for _, x := range rs {
		fn.Ret = append(fn.Ret, x.Scalar)
	}
	return nil
}

func (l *loader) lowerModule() error {
	p := l.prog
	p.FuncOf = []*ir.Function{nil}
	p.GlobalOf = []*ir.Global{nil}
	var fns []llvm.Value
	for f := l.mod.FirstFunction(); !f.IsNil(); f = llvm.NextFunction(f) {
		id := uint32(len(p.FuncOf))
		fn := &ir.Function{Name: f.Name(), ID: id, Decl: f.IsDeclaration()}
		fn.Atomic = strings.HasPrefix(fn.Name, "__VERIFIER_atomic_")
		ft := f.GlobalValueType()
		fn.Variadic = ft.IsFunctionVarArg()
		// A declaration nothing calls or takes the address of keeps no
		// signature: it cannot matter, and may be of a kind augur does not
		// hold (the coroutine intrinsics clang's lowering leaves declared
		// return tokens).
		if !fn.Decl || !f.FirstUse().IsNil() {
			if err := l.signature(fn, ft); err != nil {
				return err
			}
		}
		l.ids[ptrKey(f)] = id
		p.FuncOf = append(p.FuncOf, fn)
		p.GlobalOf = append(p.GlobalOf, nil)
		p.Funcs = append(p.Funcs, fn)
		p.NameFunc(fn.Name, fn)
		fns = append(fns, f)
	}
	var gvs []llvm.Value
	for g := l.mod.FirstGlobal(); !g.IsNil(); g = llvm.NextGlobal(g) {
		id := uint32(len(p.FuncOf))
		t := g.GlobalValueType()
		gl := &ir.Global{Name: g.Name(), ID: id, Size: l.td.TypeAllocSize(t), Align: g.Alignment(),
			ThreadLocal: g.IsThreadLocal(), Constant: g.IsGlobalConstant(), External: g.IsDeclaration()}
		if gl.Size == 0 {
			gl.Size = 1 // distinct addresses for empty objects
		}
		l.ids[ptrKey(g)] = id
		p.FuncOf = append(p.FuncOf, nil)
		p.GlobalOf = append(p.GlobalOf, gl)
		p.Globals = append(p.Globals, gl)
		p.NameGlobal(gl)
		gvs = append(gvs, g)
	}
	for _, a := range aliases(l.mod) {
		target := aliasee(a)
		if id, ok := l.ids[ptrKey(target)]; ok {
			l.ids[ptrKey(a)] = id
			if fn := p.FuncOf[id]; fn != nil {
				p.NameFunc(a.Name(), fn)
			}
		}
	}
	p.NumStatic = uint32(len(p.FuncOf))
	if uint64(p.NumStatic) >= 1<<31 {
		return errors.New("load: too many functions and globals")
	}
	for i, g := range gvs {
		gl := p.Globals[i]
		if gl.External {
			continue
		}
		init := g.Initializer()
		if init.IsNil() {
			continue
		}
		if k := kindOf(init); k == kindConstantAggregateZero || k == kindConstantPointerNull {
			continue
		}
		img := make([]byte, gl.Size)
		if err := l.constBytes(init, g.GlobalValueType(), img); err != nil {
			return fmt.Errorf("global %s: initializer: %w", gl.Name, err)
		}
		gl.Init = img
	}
	for i, f := range fns {
		fn := p.Funcs[i]
		if fn.Decl {
			continue
		}
		if err := l.lowerFunction(f, fn); err != nil {
			return fmt.Errorf("function %s: %w", fn.Name, err)
		}
	}
	ir.MarkSpinCalls(p)
	for _, fn := range p.Funcs {
		if dropJoinedMoves(fn) {
			ir.BuildCode(fn)
		}
	}
	return nil
}

// loc returns the LocID of an instruction's debug location, or 0.
func (l *loader) loc(inst llvm.Value) ir.LocID {
	md := inst.InstructionDebugLoc()
	if md.IsNil() {
		return 0
	}
	line := int(md.LocationLine())
	col := int(md.LocationColumn())
	scope := md.LocationScope()
	file, ok := l.scopeFile[unsafe.Pointer(scope.C)]
	if !ok {
		f := scope.ScopeFile()
		file = f.FileFilename()
		if dir := f.FileDirectory(); dir != "" && !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		l.scopeFile[unsafe.Pointer(scope.C)] = file
	}
	return l.intern(ir.Loc{File: file, Line: line, Col: col})
}

func (l *loader) intern(loc ir.Loc) ir.LocID {
	if id, ok := l.locIndex[loc]; ok {
		return id
	}
	id := ir.LocID(len(l.prog.Locs))
	l.prog.Locs = append(l.prog.Locs, loc)
	l.locIndex[loc] = id
	return id
}
