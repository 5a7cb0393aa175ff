// Package analyzer is the entry point the CLI and the language server share:
// it turns source files into a loaded program and (in later stages) runs
// detection and classification on it.
package analyzer

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"augur/analyzer/build"
	"augur/analyzer/ir"
)

// LoadProgram compiles files (C/C++ sources, or .bc/.ll bitcode) with the
// runtime and lowers the linked result. Compile errors come back as
// *build.CompileError values joined together.
func LoadProgram(files []string, opts build.Options) (*ir.Program, error) {
	prog, _, err := LoadProgramInputs(context.Background(), files, opts)
	return prog, err
}

// LoadProgramInputs is LoadProgram that also returns the files the program
// was compiled from (sources and the headers they include), so a caller
// knows which saves concern it. Compiles stop when ctx ends. The client
// programs of opts.Clients are linked in, client k under
// ir.ClientEntry(k), for a vm.Config whose Clients give their argv.
func LoadProgramInputs(ctx context.Context, files []string, opts build.Options) (*ir.Program, []string, error) {
	bc, err := build.Build(ctx, files, opts)
	if err != nil {
		return nil, nil, err
	}
	names := bc.Names()
	paths := slices.Clone(bc.Bitcode)
	for k, bcs := range bc.Clients {
		client, err := ir.LinkClient(bcs, names, k, opts.Dir())
		if err != nil {
			return nil, nil, err
		}
		names[client] = fmt.Sprintf("client program %d (%s)", k+1, strings.Join(bc.ClientSources[k], " "))
		paths = append(paths, client)
	}
	prog, err := ir.LoadCached(append(paths, bc.Runtime...), names, opts.Dir())
	if err != nil {
		return nil, nil, fmt.Errorf("load program: %w", err)
	}
	return prog, bc.Inputs, nil
}
