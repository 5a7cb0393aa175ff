package ir

import (
	"regexp"
	"strings"

	"github.com/ianlancetaylor/demangle"

	"augur/internal/memo"
)

// mangled matches an Itanium C++ mangled name inside a sentence.
var mangled = regexp.MustCompile(`\b_Z[A-Za-z0-9_$]+`)

// Readable replaces every C++ mangled name in a message by its demangled
// form without template arguments ("_ZN7Counter3addEi" becomes
// "Counter::add(int)"); names that do not demangle stay as they are. The
// analysis keeps symbol names (they identify functions); only what people
// read goes through Readable and ReadableName.
func Readable(s string) string { return demangled(readable, s) }

// ReadableName is Readable for a function name in a stack, which reads
// best without its parameters too ("Counter::add").
func ReadableName(s string) string { return demangled(readableName, s) }

var (
	readable     = demangler(demangle.NoTemplateParams)
	readableName = demangler(demangle.NoParams, demangle.NoTemplateParams)
)

// demangler returns a function that demangles with fixed options and
// remembers its answers: a report names the same few hundred functions in
// thousands of frames, and the language server builds the report again
// after every verdict, so demangling each time was most of an editor's
// analysis of a program with many races (std::map's, say).
func demangler(opts ...demangle.Option) *memo.Func[string, string] {
	return memo.New(func(s string) string {
		return mangled.ReplaceAllStringFunc(s, func(name string) string { return demangle.Filter(name, opts...) })
	})
}

// demangled is s with its mangled names replaced by d.
func demangled(d *memo.Func[string, string], s string) string {
	if len(s) < 3 || !strings.Contains(s, "_Z") {
		return s
	}
	return d.Get(s)
}
