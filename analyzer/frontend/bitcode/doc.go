// Package bitcode loads LLVM bitcode with go-llvm and lowers it into
// augur's own form (package ir): it parses and links the program's files
// with augur's C runtime, runs the few LLVM passes lowering relies on
// (mem2reg, the inlining of pure leaves, shared address computations),
// and translates every function, global and constant. After Load returns,
// nothing in the program refers to LLVM any more.
//
// It is the only package of the analyzer that calls LLVM (cgo). It also
// keeps lowered programs in a cache (LoadCached), links client programs
// into a program (LinkClient), and reads the symbols a bitcode file
// defines and uses (ReadSymbols).
package bitcode
