package settings

import (
	"flag"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// AddFlags registers on fs a flag for each setting the command line
// takes, named by its key, that fs does not have yet; only those of keys
// when any are given. Each is set in v to its default, the command's own
// when over has one (a value as augur.toml writes it), which the help
// shows; the flag sets it.
func AddFlags(fs *flag.FlagSet, v *Values, over map[string]any, keys ...string) {
	for i := range Table {
		s := &Table[i]
		if s.Fronts&CLI == 0 || fs.Lookup(s.Key) != nil || (len(keys) > 0 && !slices.Contains(keys, s.Key)) {
			continue
		}
		def, ok := over[s.Key]
		if !ok {
			def = s.Default
		}
		if err := s.set(v, def); err != nil {
			panic("settings: the default of --" + s.Key + " is refused: " + err.Error())
		}
		f := &flagValue{s: s, v: v, shown: shown(def)}
		help := Plain(s.Doc)
		if s.kind == kindStrings || s.kind == kindInts {
			help += " (repeatable)"
		}
		if s.kind == kindBool {
			fs.Var(boolFlag{f}, s.Key, help)
		} else {
			fs.Var(f, s.Key, help)
		}
	}
}

// flagValue is a setting as a flag: its text is made a value of the
// setting's kind and set; a list flag adds to what it was given before.
type flagValue struct {
	s     *Setting
	v     *Values
	list  []any
	shown string
}

func (f *flagValue) String() string {
	if f == nil {
		return ""
	}
	return f.shown
}

func (f *flagValue) Set(text string) error {
	x, err := fromText(f.s.kind, text)
	if err != nil {
		return err
	}
	if f.s.kind == kindStrings || f.s.kind == kindInts {
		f.list = append(f.list, x)
		x = f.list
	}
	return f.s.set(f.v, x)
}

// boolFlag is a flag that needs no value (--detect-only).
type boolFlag struct{ *flagValue }

func (boolFlag) IsBoolFlag() bool { return true }

// fromText makes a flag's text a value of kind k, as augur.toml would
// give it (one element, for a list).
func fromText(k kind, text string) (any, error) {
	switch k {
	case kindInt, kindInts:
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("want an integer, got %q", text)
		}
		return n, nil
	case kindCount:
		if text == "auto" {
			return text, nil
		}
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("want a number or auto, got %q", text)
		}
		return n, nil
	case kindBool:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return nil, fmt.Errorf("want true or false, got %q", text)
		}
		return b, nil
	}
	return text, nil
}

// shown is a default as the help shows it ("" for none).
func shown(x any) string {
	switch d := x.(type) {
	case []any:
		return ""
	case bool:
		if !d {
			return ""
		}
	case int64:
		if d == 0 {
			return ""
		}
	}
	return fmt.Sprint(x)
}

var mdLink = regexp.MustCompile(`\[([^\]]+)\]\([^)]+\)`)

// Plain is Markdown as plain text: links as their text, no backticks.
func Plain(md string) string {
	return strings.ReplaceAll(mdLink.ReplaceAllString(md, "docs/$1"), "`", "")
}
