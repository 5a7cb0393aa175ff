package vm_test

import (
	"testing"

	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/ir"
)

// A thread is named by its outermost frame of the program's own code: a
// std::thread's lambda, not libstdc++'s _M_run that calls it (whose header
// clang names through /usr/bin/../lib/gcc/...), nor the runtime's entry.
func TestStartFunctionSkipsLibraryFrames(t *testing.T) {
	const hdr = "/usr/bin/../lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/bits/"
	frame := func(fn, file string) vm.StackFrame {
		return vm.StackFrame{Function: fn, Loc: ir.Loc{File: file, Line: 1}}
	}
	cases := []struct {
		name  string
		stack []vm.StackFrame // innermost first
		want  string
		own   bool
	}{
		{"std::thread", []vm.StackFrame{
			frame("work", "/src/a.cpp"),
			frame("_ZZ4mainENK3$_0clEv", "/src/a.cpp"),
			frame("_ZSt13__invoke_implIvZ4mainE3$_0JEET_St14__invoke_otherOT0_DpOT1_", hdr+"invoke.h"),
			frame("_ZNSt6thread11_State_implINS_8_InvokerISt5tupleIJZ4mainE3$_0EEEEE6_M_runEv", hdr+"std_thread.h"),
			frame("__augur_thread_start", "augur-runtime/cxx/thread.cc"),
		}, "_ZZ4mainENK3$_0clEv", true},
		{"pthread", []vm.StackFrame{frame("worker", "a.c"), frame("__augur_start", "augur-runtime/libc/start.c")}, "worker", true},
		{"library only", []vm.StackFrame{
			frame("_ZNSt6thread11_State_implE6_M_runEv", hdr+"std_thread.h"),
			frame("__augur_thread_start", "augur-runtime/cxx/thread.cc"),
		}, "_ZNSt6thread11_State_implE6_M_runEv", false},
		{"runtime only", []vm.StackFrame{frame("__augur_start", "augur-runtime/libc/start.c")}, "", false},
	}
	for _, c := range cases {
		got, own := vm.StartFunction(c.stack)
		if got != c.want || own != c.own {
			t.Errorf("%s: StartFunction = %q, %v; want %q, %v", c.name, got, own, c.want, c.own)
		}
	}
}
