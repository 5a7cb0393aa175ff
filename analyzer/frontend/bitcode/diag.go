package bitcode

// LLVM reports errors in bitcode it reads and in modules it links through
// the context's diagnostic handler, whose default prints the message and
// exits the process: a corrupt .bc file or two sources defining the same
// global would end augur (the language server with it). Each context gets
// a handler that keeps the first error for the caller instead.

/*
#cgo CPPFLAGS: -I/usr/lib/llvm-14/include
#include <llvm-c/Core.h>
#include <llvm-c/BitReader.h>
#include <stdlib.h>

typedef struct {
	char *msg;
	int errors;
} augur_diag;

static void augur_diag_handler(LLVMDiagnosticInfoRef di, void *arg) {
	augur_diag *d = arg;
	if (LLVMGetDiagInfoSeverity(di) != LLVMDSError)
		return;
	d->errors++;
	if (d->msg == NULL)
		d->msg = LLVMGetDiagInfoDescription(di);
}

static augur_diag *augur_install_diag(LLVMContextRef c) {
	augur_diag *d = calloc(1, sizeof *d);
	LLVMContextSetDiagnosticHandler(c, augur_diag_handler, d);
	return d;
}

static void augur_diag_reset(augur_diag *d) {
	if (d->msg)
		LLVMDisposeMessage(d->msg);
	d->msg = NULL;
	d->errors = 0;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"tinygo.org/x/go-llvm"
)

// diagnostics collects the errors LLVM reports on one context.
type diagnostics struct{ d *C.augur_diag }

// catchDiagnostics installs the collecting handler on ctx. Free it once
// the context is disposed of.
func catchDiagnostics(ctx llvm.Context) *diagnostics {
	return &diagnostics{C.augur_install_diag(C.LLVMContextRef(unsafe.Pointer(ctx.C)))}
}

// take returns the error LLVM reported since the last take, or nil.
func (d *diagnostics) take() error {
	if d.d.errors == 0 {
		return nil
	}
	msg := "LLVM reported an error"
	if d.d.msg != nil {
		msg = C.GoString(d.d.msg)
	}
	if n := int(d.d.errors); n > 1 {
		msg += fmt.Sprintf(" (and %d more errors)", n-1)
	}
	C.augur_diag_reset(d.d)
	return errors.New(msg)
}

func (d *diagnostics) free() {
	C.augur_diag_reset(d.d)
	C.free(unsafe.Pointer(d.d))
}

// parseBitcodeFile reads a .bc file into ctx, with LLVM's own error
// message (through the handler) when it is not valid bitcode.
func parseBitcodeFile(ctx llvm.Context, path string, diag *diagnostics) (llvm.Module, error) {
	buf, err := llvm.NewMemoryBufferFromFile(path)
	if err != nil {
		return llvm.Module{}, err
	}
	defer buf.Dispose()
	var m C.LLVMModuleRef
	if C.LLVMParseBitcodeInContext2(C.LLVMContextRef(unsafe.Pointer(ctx.C)),
		C.LLVMMemoryBufferRef(unsafe.Pointer(buf.C)), &m) != 0 {
		if err := diag.take(); err != nil {
			return llvm.Module{}, err
		}
		return llvm.Module{}, errors.New("not valid LLVM bitcode")
	}
	return *(*llvm.Module)(unsafe.Pointer(&m)), nil
}
