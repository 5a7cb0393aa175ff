package settings

import (
	"fmt"
	"math"
	"strings"
	"time"

	"augur/analyzer"
	"augur/analyzer/exec/memmodel"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/build"
	"augur/internal/bytesize"
	"augur/internal/sysmem"
)

// Front is where a setting is given: the command line (`augur analyze`'s
// flags) or the editor (augur.toml and the client's settings).
type Front uint8

const (
	CLI Front = 1 << iota
	Editor
	Both = CLI | Editor
)

// kind is what a setting's value is, which says how the command line
// gives it (a flag of that type; lists repeat the flag).
type kind uint8

const (
	kindInt      kind = iota // an integer (flag: a number)
	kindBool                 // true or false (flag: a switch)
	kindString               // any string
	kindChoice               // one of a few strings
	kindDuration             // "30s", or 0
	kindSize                 // "512MiB", a number of bytes, or "auto"
	kindCount                // a number, or "auto"
	kindStrings              // an array of strings (flag: repeated)
	kindInts                 // an array of integers (flag: repeated)
)

// Setting is one analysis setting.
type Setting struct {
	// Key is its name in augur.toml and its `augur analyze` flag.
	Key string
	// Client is its name among the client's settings (augur.<Client> in
	// VS Code).
	Client string
	// Type says what a value is, for the docs ("integer ≥ 1").
	Type string
	// Doc says what it does, in Markdown.
	Doc string
	// Fronts are where it can be given.
	Fronts Front
	// Default is its value when none is given, as augur.toml writes it
	// (int64, bool, string or []any); EditorDefault, when not nil, is the
	// editor's instead (an analysis on every save is given less time than
	// one a user starts).
	Default, EditorDefault any
	kind                   kind
	// set checks a value, decoded from TOML or JSON (or made from a flag's
	// text by the kind), and sets it.
	set func(v *Values, x any) error
}

// Set checks x, a value as augur.toml or the client's JSON gives it, and
// sets the setting in v.
func (s *Setting) Set(v *Values, x any) error { return s.set(v, x) }

// defaultFor is the setting's default in front f.
func (s *Setting) defaultFor(f Front) any {
	if f == Editor && s.EditorDefault != nil {
		return s.EditorDefault
	}
	return s.Default
}

// Lookup finds a setting by its key; nil when there is none.
func Lookup(key string) *Setting {
	for i := range Table {
		if Table[i].Key == key {
			return &Table[i]
		}
	}
	return nil
}

// LookupClient finds a setting by its client name; nil when there is none.
func LookupClient(name string) *Setting {
	for i := range Table {
		if Table[i].Client == name {
			return &Table[i]
		}
	}
	return nil
}

func setUint(dst *uint64, v any) error {
	var n int
	if err := setInt(&n, v, 0); err != nil {
		return err
	}
	*dst = uint64(n)
	return nil
}

func setMemoryModel(s *Values, v any) error {
	var name string
	if err := setChoice(&name, v, "sc", "weak"); err != nil {
		return err
	}
	s.MemoryModel, _ = memmodel.Parse(name)
	return nil
}

func setUndefined(s *Values, v any) error {
	var name string
	if err := setChoice(&name, v, "stop", "havoc"); err != nil {
		return err
	}
	s.Undefined, _ = vm.ParseUndefined(name)
	return nil
}

// setMaxInstructions sets the instruction budget of each execution: a
// number (0: none), or "auto" (it follows the program).
func setMaxInstructions(s *Values, v any) error {
	if v == "auto" {
		s.MaxInstructions, s.AutoInstructions = 0, true
		return nil
	}
	var n int
	err := setInt(&n, v, 0)
	s.MaxInstructions, s.AutoInstructions = uint64(n), false
	return err
}

// setExploreInstructions sets the exploration's budget: "auto" (0 in
// analyzer.Options: it follows the program), a number, or 0 for none.
func setExploreInstructions(s *Values, v any) error {
	if v == "auto" {
		s.ExploreInstructions = 0
		return nil
	}
	var n int
	if err := setInt(&n, v, 0); err != nil {
		return err
	}
	s.ExploreInstructions = uint64(n)
	if n == 0 {
		s.ExploreInstructions = analyzer.NoExploreLimit
	}
	return nil
}

// setExploreTime sets the exploration's time: a duration (0: no
// exploration), or "auto": none of its own (analyzer.ExploreAuto).
func setExploreTime(s *Values, v any) error {
	if v == "auto" {
		s.ExploreTime = analyzer.ExploreAuto
		return nil
	}
	return setDuration(&s.ExploreTime, v)
}

// setMaxMemory sets the memory budget: a size (0: none), or "auto": half
// the memory available now (sysmem.DefaultBudget).
func setMaxMemory(s *Values, v any) error {
	if v == "auto" {
		s.MaxMemory = sysmem.DefaultBudget()
		return nil
	}
	return setSize(&s.MaxMemory, v)
}

func setInt(dst *int, v any, lo int) error {
	var n int64
	switch x := v.(type) {
	case int64:
		n = x
	case float64:
		if x != math.Trunc(x) {
			return fmt.Errorf("want an integer, got %v", x)
		}
		n = int64(x)
	default:
		return fmt.Errorf("want an integer, got %v", describe(v))
	}
	if n < int64(lo) {
		return fmt.Errorf("want at least %d, got %d", lo, n)
	}
	*dst = int(n)
	return nil
}

func setBool(dst *bool, v any) error {
	b, ok := v.(bool)
	if !ok {
		return fmt.Errorf("want true or false, got %v", describe(v))
	}
	*dst = b
	return nil
}

func setString(dst *string, v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("want a string, got %v", describe(v))
	}
	*dst = s
	return nil
}

func setChoice(dst *string, v any, choices ...string) error {
	var s string
	if err := setString(&s, v); err != nil {
		return err
	}
	for _, c := range choices {
		if s == c {
			*dst = s
			return nil
		}
	}
	return fmt.Errorf("want one of %s, got %q", strings.Join(choices, ", "), s)
}

func setDuration(dst *time.Duration, v any) error {
	switch x := v.(type) {
	case string:
		d, err := time.ParseDuration(x)
		if err != nil || d < 0 {
			return fmt.Errorf("want a duration such as \"30s\", got %q", x)
		}
		*dst = d
		return nil
	case int64:
		if x == 0 {
			*dst = 0
			return nil
		}
	case float64:
		if x == 0 {
			*dst = 0
			return nil
		}
	}
	return fmt.Errorf("want a duration such as \"30s\", got %v", describe(v))
}

func setSize(dst *uint64, v any) error {
	switch x := v.(type) {
	case string:
		n, err := bytesize.Parse(x)
		if err != nil {
			return err
		}
		*dst = n
		return nil
	case int64, float64:
		var n int
		if err := setInt(&n, v, 0); err != nil {
			return err
		}
		*dst = uint64(n)
		return nil
	}
	return fmt.Errorf("want a size such as \"4GiB\", got %v", describe(v))
}

// setFlags sets compiler flags, refusing any that does more than change
// how the source is parsed (see build.CheckFlags): a workspace must not be
// able to make clang load a plugin or write a file.
func setFlags(dst *[]string, v any) error {
	var flags []string
	if err := setStrings(&flags, v); err != nil {
		return err
	}
	if err := build.CheckFlags(flags); err != nil {
		return fmt.Errorf("flag %d refused: %w", err.(*build.FlagError).Index+1, err)
	}
	*dst = flags
	return nil
}

func setStrings(dst *[]string, v any) error {
	arr, ok := v.([]any)
	if !ok {
		return fmt.Errorf("want an array of strings, got %v", describe(v))
	}
	out := make([]string, len(arr))
	for i, x := range arr {
		if err := setString(&out[i], x); err != nil {
			return fmt.Errorf("element %d: %w", i+1, err)
		}
	}
	*dst = out
	return nil
}

func setInts(dst *[]int, v any) error {
	arr, ok := v.([]any)
	if !ok {
		return fmt.Errorf("want an array of integers, got %v", describe(v))
	}
	out := make([]int, len(arr))
	for i, x := range arr {
		if err := setInt(&out[i], x, 1); err != nil {
			return fmt.Errorf("element %d: %w", i+1, err)
		}
	}
	*dst = out
	return nil
}

func setSymFiles(dst *map[string]int, v any) error {
	var specs []string
	if err := setStrings(&specs, v); err != nil {
		return err
	}
	out := map[string]int{}
	for _, spec := range specs {
		name, size, ok := strings.Cut(spec, ":")
		var n int
		if _, err := fmt.Sscanf(size, "%d", &n); !ok || err != nil || n <= 0 || name == "" {
			return fmt.Errorf("want \"NAME:SIZE\", got %q", spec)
		}
		out[name] = n
	}
	*dst = out
	return nil
}

// describe names a decoded value's type for an error message.
func describe(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("the string %q", x)
	case bool:
		return fmt.Sprintf("the boolean %v", x)
	case int64, float64:
		return fmt.Sprintf("the number %v", x)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%v", v)
}

// DecodeString and DecodeStrings check and set a string, or an array of
// strings, decoded from TOML or JSON, with the messages a setting's value
// gets: for what augur.toml holds beside the settings (a target's keys).
func DecodeString(dst *string, v any) error { return setString(dst, v) }

// DecodeStrings: see DecodeString.
func DecodeStrings(dst *[]string, v any) error { return setStrings(dst, v) }
