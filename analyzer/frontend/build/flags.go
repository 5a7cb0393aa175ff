package build

import (
	"fmt"
	"regexp"
	"strings"
)

// Compiler flags from a workspace (augur.toml, a compilation database, the
// editor's settings) come from whoever wrote the repository being opened,
// and clang will do what they say: load a plugin (-fplugin), write files
// (-MJ, -o, -save-temps), read its options from a file (@file, --config)
// or pass options to other tools (-Xclang, -Wl, -mllvm). Opening a
// repository must never run its code or write outside augur's cache, so
// only flags that change how the source is parsed pass: include paths,
// macros, the language standard, warnings and target features. Include
// paths still let clang read files, which is what compiling is.

// flagRule accepts one flag: either the flag alone, the flag glued to its
// value (prefix), or the flag followed by its value as the next argument.
type flagRule struct {
	name    string
	prefix  bool // "-DX", "-std=c11": the value is glued on
	nextArg bool // "-I dir", "-include file": the value is the next argument
}

var flagRules = []flagRule{
	{name: "-I", prefix: true, nextArg: true},
	{name: "-isystem", prefix: true, nextArg: true},
	{name: "-iquote", prefix: true, nextArg: true},
	{name: "-idirafter", prefix: true, nextArg: true},
	{name: "-include", nextArg: true},
	{name: "-imacros", nextArg: true},
	{name: "-isysroot", nextArg: true},
	{name: "--sysroot=", prefix: true},
	{name: "-nostdinc"},
	{name: "-nostdinc++"},
	{name: "-D", prefix: true, nextArg: true},
	{name: "-U", prefix: true, nextArg: true},
	{name: "-std=", prefix: true},
	{name: "-ansi"},
	{name: "-pedantic"},
	{name: "-pedantic-errors"},
	{name: "-w"},
	{name: "-pthread"},
	{name: "-fsigned-char"},
	{name: "-funsigned-char"},
	{name: "-fno-signed-char"},
	{name: "-fno-unsigned-char"},
	{name: "-fms-extensions"},
	{name: "-fno-ms-extensions"},
	{name: "-fgnu89-inline"},
	{name: "-fno-gnu89-inline"},
	{name: "-fgnu-keywords"},
	{name: "-fno-gnu-keywords"},
	{name: "-fno-builtin"},
	{name: "-fno-builtin-", prefix: true},
	{name: "-ffreestanding"},
	{name: "-fcommon"},
	{name: "-fno-common"},
	{name: "-fwrapv"},
	{name: "-fno-strict-aliasing"},
	// A C++ function that falls off its end without returning its value
	// traps under clang (strict return) and returns whatever is in the
	// register under gcc; code written against gcc (thread functions
	// declared void * that never return) needs gcc's to run as it does.
	{name: "-fstrict-return"},
	{name: "-fno-strict-return"},
	{name: "-fshort-enums"},
	{name: "-fshort-wchar"},
	{name: "-fpack-struct=", prefix: true},
	{name: "-fchar8_t"},
	{name: "-fno-char8_t"},
	{name: "-fno-rtti"},
	{name: "-fno-exceptions"},
	{name: "-fopenmp-simd"},
	{name: "-fdeclspec"},
	{name: "-fblocks"},
	{name: "-fdollars-in-identifiers"},
	{name: "-ftemplate-depth=", prefix: true},
	{name: "-fconstexpr-depth=", prefix: true},
	{name: "-fconstexpr-steps=", prefix: true},
	{name: "-march=", prefix: true},
	{name: "-mcpu=", prefix: true},
	{name: "-mtune=", prefix: true},
	{name: "-x", nextArg: true},
}

// warningTools are the -W forms that pass options to another tool rather
// than naming a warning.
var warningTools = []string{"-Wl,", "-Wa,", "-Wp,"}

// CheckFlag decides whether args[i] (with, for a flag that takes one, its
// value in args[i+1]) may reach clang. It returns how many arguments the
// flag spans, or an error that says why it is refused.
func CheckFlag(args []string, i int) (int, error) {
	a := args[i]
	switch {
	case a == "":
		return 1, fmt.Errorf("an empty argument is not a compiler flag")
	case a[0] == '@':
		return 0, fmt.Errorf("%q reads more flags from a file; give them here instead", a)
	case !strings.HasPrefix(a, "-"):
		return 0, fmt.Errorf("%q is not a flag (sources come from the target's sources)", a)
	case strings.HasPrefix(a, "-W"):
		for _, t := range warningTools {
			if strings.HasPrefix(a, t) {
				return 0, fmt.Errorf("%q passes options to another tool; only flags that change how the source is parsed are allowed", a)
			}
		}
		return 1, nil // a warning: -Wall, -Wno-unused, -Werror=...
	case a == "-m32" || a == "-mx32" || a == "-m16":
		return 0, fmt.Errorf("%q: augur analyzes 64-bit code", a)
	case targetFeature.MatchString(a) && !separateM[a] && !strings.HasPrefix(a, "-module") && !strings.HasPrefix(a, "-mllvm"):
		return 1, nil // a target feature: -msse4.2, -mavx2, -mno-red-zone
	}
	for _, r := range flagRules {
		switch {
		case a == r.name && r.nextArg:
			if i+1 >= len(args) {
				return 0, fmt.Errorf("%q needs a value", a)
			}
			if strings.HasPrefix(args[i+1], "-") || strings.HasPrefix(args[i+1], "@") {
				return 0, fmt.Errorf("%q needs a value, not %q", a, args[i+1])
			}
			if r.name == "-x" && !oneOf(args[i+1], "c", "c++", "c-header", "c++-header") {
				return 0, fmt.Errorf("-x %s: augur compiles C and C++", args[i+1])
			}
			return 2, nil
		case a == r.name:
			return 1, nil
		case r.prefix && strings.HasPrefix(a, r.name) && len(a) > len(r.name):
			return 1, nil
		}
	}
	return 0, fmt.Errorf("%q is not allowed: augur passes only flags that change how the source is parsed "+
		"(include paths, macros, the language standard, warnings, target features)", a)
}

// targetFeature is the form of clang's -m target features (-msse4.2,
// -mno-red-zone, -mgeneral-regs-only). The -m options that take the next
// argument (separateM), or begin -module or -mllvm, look like features
// but are not: allowed, each would swallow the argument after it.
var targetFeature = regexp.MustCompile(`^-m[a-z0-9][a-z0-9._]*(-[a-z0-9._]+)*$`)

var separateM = map[string]bool{"-meabi": true, "-mthread-model": true, "-mtp": true, "-mcode-object-version": true}

func oneOf(s string, choices ...string) bool {
	for _, c := range choices {
		if s == c {
			return true
		}
	}
	return false
}

// CheckFlags checks every flag of args; the error names the first refused
// one and its index.
func CheckFlags(args []string) error {
	for i := 0; i < len(args); {
		n, err := CheckFlag(args, i)
		if err != nil {
			return &FlagError{Index: i, Flag: args[i], Err: err}
		}
		i += n
	}
	return nil
}

// FlagError is a refused compiler flag: which argument, and why.
type FlagError struct {
	Index int
	Flag  string
	Err   error
}

func (e *FlagError) Error() string { return e.Err.Error() }
func (e *FlagError) Unwrap() error { return e.Err }
