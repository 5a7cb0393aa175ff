package ir

import (
	"regexp"

	"github.com/ianlancetaylor/demangle"
)

// mangled matches an Itanium C++ mangled name inside a sentence.
var mangled = regexp.MustCompile(`\b_Z[A-Za-z0-9_$]+`)

// Readable replaces every C++ mangled name in a message by its demangled
// form without template arguments ("_ZN7Counter3addEi" becomes
// "Counter::add(int)"); names that do not demangle stay as they are. The
// analysis keeps symbol names (they identify functions); only what people
// read goes through Readable and ReadableName.
func Readable(s string) string { return demangleIn(s, demangle.NoTemplateParams) }

// ReadableName is Readable for a function name in a stack, which reads
// best without its parameters too ("Counter::add").
func ReadableName(s string) string {
	return demangleIn(s, demangle.NoParams, demangle.NoTemplateParams)
}

func demangleIn(s string, opts ...demangle.Option) string {
	if len(s) < 3 {
		return s
	}
	return mangled.ReplaceAllStringFunc(s, func(name string) string { return demangle.Filter(name, opts...) })
}
