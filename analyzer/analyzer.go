// Package analyzer is the entry point the CLI and the language server share:
// it turns source files into a loaded program and (in later stages) runs
// detection and classification on it.
package analyzer

import (
	"fmt"

	"augur/analyzer/build"
	"augur/analyzer/ir"
)

// LoadProgram compiles files (C/C++ sources, or .bc/.ll bitcode) with the
// runtime and lowers the linked result. Compile errors come back as
// *build.CompileError values joined together.
func LoadProgram(files []string, opts build.Options) (*ir.Program, error) {
	bc, err := build.Build(files, opts)
	if err != nil {
		return nil, err
	}
	prog, err := ir.Load(bc.All())
	if err != nil {
		return nil, fmt.Errorf("load program: %w", err)
	}
	return prog, nil
}
