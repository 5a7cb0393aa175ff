package ir

import (
	"regexp"
	"strings"
	"sync"

	"github.com/ianlancetaylor/demangle"
)

// mangled matches an Itanium C++ mangled name inside a sentence.
var mangled = regexp.MustCompile(`\b_Z[A-Za-z0-9_$]+`)

// Readable replaces every C++ mangled name in a message by its demangled
// form without template arguments ("_ZN7Counter3addEi" becomes
// "Counter::add(int)"); names that do not demangle stay as they are. The
// analysis keeps symbol names (they identify functions); only what people
// read goes through Readable and ReadableName.
func Readable(s string) string { return readable.of(s) }

// ReadableName is Readable for a function name in a stack, which reads
// best without its parameters too ("Counter::add").
func ReadableName(s string) string { return readableName.of(s) }

var (
	readable     = demangler{opts: []demangle.Option{demangle.NoTemplateParams}}
	readableName = demangler{opts: []demangle.Option{demangle.NoParams, demangle.NoTemplateParams}}
)

// demangler demangles with fixed options and remembers its answers: a
// report names the same few hundred functions in thousands of frames,
// and the language server builds the report again after every verdict,
// so demangling each time was most of an editor's analysis of a program
// with many races (std::map's, say). The memory is bounded: past
// maxRemembered names it starts over.
type demangler struct {
	opts []demangle.Option
	mu   sync.Mutex
	seen map[string]string
}

const maxRemembered = 1 << 16

func (d *demangler) of(s string) string {
	if len(s) < 3 || !strings.Contains(s, "_Z") {
		return s
	}
	d.mu.Lock()
	out, ok := d.seen[s]
	d.mu.Unlock()
	if ok {
		return out
	}
	out = mangled.ReplaceAllStringFunc(s, func(name string) string { return demangle.Filter(name, d.opts...) })
	d.mu.Lock()
	if d.seen == nil || len(d.seen) >= maxRemembered {
		d.seen = map[string]string{}
	}
	d.seen[s] = out
	d.mu.Unlock()
	return out
}
