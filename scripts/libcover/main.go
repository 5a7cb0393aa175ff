// Command libcover measures how much of the C library and C++ runtime a
// corpus of programs calls is covered, and by what: a model in the VM (Go,
// analyzer/exec/vm), augur's runtime compiled to bitcode (C and C++, runtime/),
// or nothing (the call would stop the analysis as unsupported). It prints
// a Markdown report: per program, then the functions most often missing.
//
//	go run -tags=llvm14 ./scripts/libcover FILE.c...
//
// docs/libc.md quotes its output on a public corpus and explains the
// choice between models and compiled library code that follows from it.
package main

import (
	"context"
	"debug/elf"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"augur/analyzer/exec/libc"
	"augur/analyzer/frontend/bitcode"
	"augur/analyzer/frontend/build"
)

// systemLibs are the shared objects whose exported functions count as the
// C library (glibc, libm): a missing function from them is augur's gap; any
// other missing function belongs to a third-party library or to code the
// program did not include (havoc territory).
var systemLibs = []string{"/lib/x86_64-linux-gnu/libc.so.6", "/lib/x86_64-linux-gnu/libm.so.6"}

// libcNames reads the functions the system libraries export.
func libcNames() map[string]bool {
	out := map[string]bool{}
	for _, path := range systemLibs {
		f, err := elf.Open(path)
		if err != nil {
			continue
		}
		syms, _ := f.DynamicSymbols()
		for _, s := range syms {
			if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Section != elf.SHN_UNDEF {
				out[s.Name] = true
			}
		}
		f.Close()
	}
	return out
}

// coverage is how one program's external calls are served.
type coverage struct {
	name                    string
	model, runtime, missing []string
	err                     error
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: libcover FILE.c...")
		os.Exit(2)
	}
	cache, err := os.MkdirTemp("", "libcover")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer os.RemoveAll(cache)
	var all []coverage
	for _, f := range os.Args[1:] {
		all = append(all, measure(f, cache))
	}
	report(all)
}

// measure compiles one program and sorts the functions it calls but does
// not define.
func measure(path, cache string) coverage {
	c := coverage{name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))}
	bc, err := build.Build(context.Background(), []string{path}, build.Options{CacheDir: cache})
	if err != nil {
		c.err = fmt.Errorf("does not compile")
		return c
	}
	user, err := bitcode.Load(bc.Bitcode)
	if err != nil {
		c.err = err
		return c
	}
	rt, err := bitcode.Load(bc.Runtime)
	if err != nil {
		c.err = err
		return c
	}
	for _, f := range user.Funcs {
		if !f.Decl || strings.HasPrefix(f.Name, "llvm.dbg.") {
			continue
		}
		switch def := rt.Func(f.Name); {
		case def != nil && !def.Decl:
			c.runtime = append(c.runtime, f.Name)
		case libc.Models().Lookup(f.Name) != nil:
			c.model = append(c.model, f.Name)
		default:
			c.missing = append(c.missing, f.Name)
		}
	}
	return c
}

func report(all []coverage) {
	fmt.Println("| program | external functions | models (Go) | runtime (C/C++) | missing |")
	fmt.Println("|---|---:|---:|---:|---|")
	missCount := map[string]int{}
	libc := libcNames()
	var calls, models, runtime, missing, missingLibc, complete, built int
	for _, c := range all {
		if c.err != nil {
			fmt.Printf("| %s | %v | | | |\n", c.name, c.err)
			continue
		}
		built++
		n := len(c.model) + len(c.runtime) + len(c.missing)
		calls, models, runtime, missing = calls+n, models+len(c.model), runtime+len(c.runtime), missing+len(c.missing)
		if len(c.missing) == 0 {
			complete++
		}
		for _, m := range c.missing {
			missCount[m]++
			if libc[m] {
				missingLibc++
			}
		}
		shown := c.missing
		if len(shown) > 6 {
			shown = append(shown[:6:6], fmt.Sprintf("... %d more", len(c.missing)-6))
		}
		fmt.Printf("| %s | %d | %d | %d | %d %s |\n", c.name, n, len(c.model), len(c.runtime), len(c.missing), strings.Join(shown, ", "))
	}
	fmt.Printf("\n%d of %d programs built; %d call nothing missing. Calls to external functions: %d, served by models %d (%.0f%%), by the runtime %d (%.0f%%), missing %d (%.0f%%): %d (%.0f%%) to the C library, %d to other libraries or code not in the program.\n",
		built, len(all), complete, calls, models, pct(models, calls), runtime, pct(runtime, calls), missing, pct(missing, calls),
		missingLibc, pct(missingLibc, calls), missing-missingLibc)
	type kv struct {
		name string
		n    int
	}
	var top []kv
	for k, v := range missCount {
		top = append(top, kv{k, v})
	}
	sort.Slice(top, func(i, j int) bool { return top[i].n > top[j].n || top[i].n == top[j].n && top[i].name < top[j].name })
	for _, group := range []struct {
		title string
		libc  bool
	}{{"C library functions missing most often (programs calling it)", true}, {"Other functions missing most often", false}} {
		fmt.Printf("\n%s:\n", group.title)
		var line []string
		for _, e := range top {
			if libc[e.name] == group.libc && len(line) < 30 {
				line = append(line, fmt.Sprintf("%s (%d)", e.name, e.n))
			}
		}
		fmt.Println(strings.Join(line, ", "))
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
