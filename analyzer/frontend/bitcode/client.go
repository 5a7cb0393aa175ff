package bitcode

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"tinygo.org/x/go-llvm"

	"augur/analyzer/frontend/ir"
	"augur/internal/cachefile"
)

// A client program runs beside the program in one execution (the vm's
// clients.go): a client of a server, as a test harness would run it. Its
// translation units are linked into a module of their own whose every
// definition is made internal, so that its names cannot meet the
// program's (each has a main, and may have a helper of the same name),
// and whose main becomes ClientEntry(k). That module then links with the
// program and the runtime like any other bitcode file: what the client
// calls and does not define (the C library) resolves to the runtime.

// clientFormat changes whenever LinkClient's output changes.
const clientFormat = 1

// LinkClient links the bitcode files of client program k into one module
// as described above and writes it under dir (a cache: the same inputs
// give the same file, made once). It returns the file's path.
func LinkClient(paths []string, names map[string]string, k int, dir string) (string, error) {
	if len(paths) == 0 {
		return "", errors.New("client program: no bitcode")
	}
	h := sha256.New()
	fmt.Fprintf(h, "augur client %d\x00%d\x00", clientFormat, k)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return "", fmt.Errorf("client program: %w", err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", names[p], len(data))
		h.Write(data)
	}
	out := filepath.Join(dir, "clients", hex.EncodeToString(h.Sum(nil))[:32]+".bc")
	if _, err := os.Stat(out); err == nil {
		cachefile.Touch(out)
		return out, nil
	}
	ctx := llvm.NewContext()
	diag := catchDiagnostics(ctx)
	defer diag.free()
	defer ctx.Dispose()
	mod, err := linkFiles(ctx, paths, names, diag)
	if err != nil {
		return "", fmt.Errorf("client program: %w", err)
	}
	defer mod.Dispose()
	if err := internalizeClient(mod, k); err != nil {
		return "", fmt.Errorf("client program %s: %w", nameOf(paths[0], names), err)
	}
	buf := llvm.WriteBitcodeToMemoryBuffer(mod)
	defer buf.Dispose()
	if err := cachefile.WriteAtomic(out, buf.Bytes()); err != nil {
		return "", fmt.Errorf("client program: %w", err)
	}
	cachefile.Keep(out, ".bc", cachefile.Limits{Files: maxCachedPrograms})
	return out, nil
}

// internalizeClient renames the client's main to ClientEntry(k) and makes
// every other definition internal (and out of its comdat, which an
// internal symbol cannot key).
func internalizeClient(mod llvm.Module, k int) error {
	main := mod.NamedFunction("main")
	if main.IsNil() || main.IsDeclaration() {
		return errors.New("it defines no main")
	}
	main.SetName(ir.ClientEntry(k))
	hide := func(v llvm.Value) {
		if v.IsDeclaration() || strings.HasPrefix(v.Name(), "llvm.") || v.Name() == ir.ClientEntry(k) {
			return
		}
		switch v.Linkage() {
		case llvm.InternalLinkage, llvm.PrivateLinkage, llvm.AppendingLinkage:
			return
		}
		v.SetLinkage(llvm.InternalLinkage)
		v.SetComdat(llvm.Comdat{})
	}
	for f := mod.FirstFunction(); !f.IsNil(); f = llvm.NextFunction(f) {
		hide(f)
	}
	for g := mod.FirstGlobal(); !g.IsNil(); g = llvm.NextGlobal(g) {
		hide(g)
	}
	return nil
}
