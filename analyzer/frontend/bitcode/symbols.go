package bitcode

import (
	"sort"
	"strings"

	"tinygo.org/x/go-llvm"
)

// Symbols are the names one bitcode file gives to the linker: what it
// defines for other files (external functions and variables), sorted,
// and what it uses that it leaves to them (declarations), in the order
// the module declares them (clang's: the order of first use). Intrinsics and what stays in
// the file (static functions and variables) are left out.
type Symbols struct {
	Defined   []string
	Undefined []string
}

// ReadSymbols reads the symbols of one bitcode (.bc) or IR (.ll) file, as
// a linker looking for the definition of a name would, without lowering
// the module.
func ReadSymbols(path string) (Symbols, error) {
	ctx := llvm.NewContext()
	diag := catchDiagnostics(ctx)
	defer diag.free()
	defer ctx.Dispose()
	mod, err := parse(ctx, path, "", diag)
	if err != nil {
		return Symbols{}, err
	}
	defer mod.Dispose()
	var s Symbols
	add := func(v llvm.Value) {
		name := v.Name()
		switch {
		case name == "" || strings.HasPrefix(name, "llvm."):
		case v.IsDeclaration():
			s.Undefined = append(s.Undefined, name)
		case v.Linkage() != llvm.InternalLinkage && v.Linkage() != llvm.PrivateLinkage:
			s.Defined = append(s.Defined, name)
		}
	}
	for f := mod.FirstFunction(); !f.IsNil(); f = llvm.NextFunction(f) {
		add(f)
	}
	for g := mod.FirstGlobal(); !g.IsNil(); g = llvm.NextGlobal(g) {
		add(g)
	}
	for _, a := range aliases(mod) {
		add(a) // an alias is a definition: it names its target's
	}
	sort.Strings(s.Defined) // Undefined stays in the module's order: first used, first
	return s, nil
}
