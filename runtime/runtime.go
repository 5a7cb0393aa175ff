// Package runtime embeds augur's C runtime: the parts of libc that are plain
// computation (string.h, ctype tables, conversions, qsort), written in C so
// that the interpreter executes them like user code and sees their memory
// accesses, and augur.h, the API an analyzed program may call. Primitives that
// need the machine (malloc, threads, I/O, time) are handled in Go by the VM.
package runtime

import "embed"

// Files holds the C sources (libc/*.c), the C++ runtime linked into C++
// programs (cxx/*.cc) and the headers (include/*.h).
//
//go:embed libc/*.c include/*.h cxx/*.cc
var Files embed.FS
