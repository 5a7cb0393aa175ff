// Package load makes the program an analysis runs from its sources: it
// builds them with the runtime (and the client programs beside them),
// completes the program from a project's other sources when asked, and
// lowers the linked bitcode.
package load

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"augur/analyzer/frontend/bitcode"
	"augur/analyzer/frontend/build"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/frontend/resolve"
)

// Program compiles files (C/C++ sources, or .bc/.ll bitcode) with the
// runtime and lowers the linked result. Compile errors come back as
// *build.CompileError values joined together.
func Program(files []string, opts build.Options) (*ir.Program, error) {
	l, err := Sources(context.Background(), files, opts, nil, nil)
	if err != nil {
		return nil, err
	}
	return l.Prog, nil
}

// Loaded is a program loaded from its sources.
type Loaded struct {
	Prog *ir.Program
	// Inputs are the files it was compiled from, headers included.
	Inputs []string
	// Sources are the files given and, after them, those taken from the
	// candidates to define what they use (Resolved says which and why).
	Sources  []string
	Resolved *resolve.Result
}

// Sources loads the program of files, as Program, and completes it from
// candidates, as a linker from a library: a source among them that
// defines a function or variable the program uses and defines nowhere,
// and that augur does not model (modeled), is compiled in, and so on for
// what that one needs (resolve.Complete). With no candidates the program
// is the files given. The client programs of opts.Clients are linked in,
// client k under ir.ClientEntry(k), for a vm.Config whose Clients give
// their argv. Compiles stop when ctx ends.
func Sources(ctx context.Context, files []string, opts build.Options, candidates []string, modeled func(string) bool) (*Loaded, error) {
	bc, err := build.Build(ctx, files, opts)
	if err != nil {
		return nil, err
	}
	l := &Loaded{Sources: files}
	if len(candidates) > 0 {
		if l.Resolved, err = resolve.Complete(ctx, files, bc, candidates, opts, modeled); err != nil {
			return nil, fmt.Errorf("complete the program: %w", err)
		}
		if len(l.Resolved.Taken) > 0 {
			l.Sources = l.Resolved.Sources(files)
			if bc, err = build.Build(ctx, l.Sources, opts); err != nil {
				return nil, err
			}
		}
	}
	names := bc.Names()
	paths := slices.Clone(bc.Bitcode)
	for k, bcs := range bc.Clients {
		client, err := bitcode.LinkClient(bcs, names, k, opts.Dir())
		if err != nil {
			return nil, err
		}
		names[client] = fmt.Sprintf("client program %d (%s)", k+1, strings.Join(bc.ClientSources[k], " "))
		paths = append(paths, client)
	}
	prog, err := bitcode.LoadCached(append(paths, bc.Runtime...), names, opts.Dir())
	if err != nil {
		return nil, fmt.Errorf("load program: %w", err)
	}
	l.Prog, l.Inputs = prog, bc.Inputs
	return l, nil
}
