package vm

import "augur/analyzer/frontend/ir"

// Library is the state the C library's models keep of an execution beyond
// its memory: the open files, the virtual file system and the network
// (package libc). The machine holds it without looking inside, and calls it
// where the execution's life touches it: a fork, the end of a process, the
// memory budget.
type Library interface {
	// Fork returns the state of c, a fork of the execution.
	Fork(c *Machine) Library
	// Flush writes out what the streams buffer, as the process's exit does.
	Flush()
	// Footprint is the memory the state holds, in bytes.
	Footprint() uint64
	// WriteStderr writes a message of the C library to t's standard error.
	WriteStderr(t *Thread, msg []byte)
	// ProcessExit closes what process proc (Thread.Proc) opened.
	ProcessExit(proc int)
	// StdinDrained reports whether the program read its standard input
	// to the end: the exploration of inputs gives a program that found it
	// empty one of a few symbolic bytes (symex.InventedStdin).
	StdinDrained() bool
	// Missing lists the files the program looked for by name that the
	// virtual file system did not hold, sorted by path.
	Missing() []MissingFile
	// Written lists the files of the virtual file system that the
	// program made, changed or removed, as they are now, sorted by path.
	Written() []WrittenFile
}

// MissingFile is a file the program looked for by name (an open or fopen
// for reading, stat, access) that its virtual file system did not hold,
// with where it first looked. augur gives a program only the files it is
// told to (--file, augur.toml's files), so a name here is often an input
// the user meant it to read: the report says so when the file exists on
// the host (analyzer.HostFiles).
type MissingFile struct {
	Path string // the name as the virtual file system resolves it
	At   ir.Loc
}

// WrittenFile is a file whose contents at the end of an execution differ
// from what the program was given (Config.Files): one it made, changed or
// removed. Files in /tmp and the system's trees (/dev, /proc, /sys) are
// left out: they are scratch, not what the program leaves its user. What
// a program writes to files is output as much as what it prints
// (Portend+ compares both), so the digest of an execution's output
// covers these (OutputDigest.Files).
type WrittenFile struct {
	Path    string
	Removed bool
	Size    uint64
	Hash    uint64 // FNV-1a of the contents
	// Head is the first MaxFileHead bytes of the contents: what a report
	// shows of the file.
	Head []byte
}

// MaxFileHead is how much of a written file an execution keeps to show.
const MaxFileHead = 16 << 10

// MaxWrittenFiles bounds the written files an execution lists; the
// digest covers all of them.
const MaxWrittenFiles = 64

// Library is the execution's library state.
func (s *state) Library() Library { return s.lib }

// Config is the configuration the execution was made with.
func (m *Machine) Config() Config { return m.cfg }
