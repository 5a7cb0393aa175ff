package workspace

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"augur/analyzer/settings"
)

// This file reads augur.toml with go-toml (all of TOML 1.0: dotted keys,
// inline tables, floats, dates, multi-line strings) and gives the rest of
// the package what it checks: each table's keys in file order, their
// values, and the line that set each key, so that augur's own checks of
// keys and values can name the line.

// tomlTable is one table: its keys in file order and their values as
// go-toml decodes them (string, int64, float64, bool, []any,
// map[string]any, or a date/time type).
type tomlTable struct {
	keys   []string
	values map[string]any
	lines  map[string]int // where each key was set, for error messages
}

// tomlDoc is a parsed file: the root table, other tables (which augur.toml
// does not use, but a user may write) and arrays of tables.
type tomlDoc struct {
	root   *tomlTable
	tables map[string]*tomlTable
	arrays map[string][]*tomlTable
}

// parseTOML parses src; errors name the line.
func parseTOML(src string) (*tomlDoc, error) {
	var data map[string]any
	if err := toml.Unmarshal([]byte(src), &data); err != nil {
		return nil, syntaxError(src, err)
	}
	lines, order := keyLines(src)
	doc := &tomlDoc{root: &tomlTable{values: map[string]any{}, lines: map[string]int{}},
		tables: map[string]*tomlTable{}, arrays: map[string][]*tomlTable{}}
	for _, k := range order[""] {
		v := data[k]
		switch x := v.(type) {
		case []any:
			if tables, ok := allTables(x); ok {
				for i, m := range tables {
					doc.arrays[k] = append(doc.arrays[k], tableOf(m, fmt.Sprintf("%s.%d.", k, i), lines[k], lines, order))
				}
				continue
			}
		case map[string]any:
			if settings.Lookup(k) == nil { // a setting given a table is the setting's error
				doc.tables[k] = tableOf(x, k+".", lines[k], lines, order)
				continue
			}
		}
		doc.root.keys = append(doc.root.keys, k)
		doc.root.values[k] = v
		doc.root.lines[k] = lines[k]
	}
	return doc, nil
}

// allTables returns the elements of a non-empty array whose elements are
// all tables: an array of tables, [[name]] or name = [{...}].
func allTables(arr []any) ([]map[string]any, bool) {
	out := make([]map[string]any, 0, len(arr))
	for _, e := range arr {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, false
		}
		out = append(out, m)
	}
	return out, len(out) > 0
}

// tableOf makes the table at path (its keys' prefix in lines and order).
// The keys of an inline table are not expressions of their own: they come
// after the others, sorted, on the line of the key that holds the table.
func tableOf(m map[string]any, path string, line int, lines map[string]int, order map[string][]string) *tomlTable {
	t := &tomlTable{values: map[string]any{}, lines: map[string]int{}}
	keys := order[path]
	var inline []string
	for k := range m {
		if !slices.Contains(keys, k) {
			inline = append(inline, k)
		}
	}
	sort.Strings(inline)
	for _, k := range append(slices.Clone(keys), inline...) {
		t.keys = append(t.keys, k)
		t.values[k] = m[k]
		t.lines[k] = line
		if l, ok := lines[path+k]; ok {
			t.lines[k] = l
		}
	}
	return t
}

// keyLines walks the document's expressions and returns the line of each
// key's first mention, by its path ("timeout", "target.0.name"; a dotted
// key's parts are joined the same way), and each table's top-level keys in
// file order, by the table's path prefix ("" for the root, "target.0.").
func keyLines(src string) (map[string]int, map[string][]string) {
	lines, order := map[string]int{}, map[string][]string{}
	counts := map[string]int{}
	var p unstable.Parser
	p.Reset([]byte(src))
	note := func(prefix string, parts []string, line int) {
		for i := range parts {
			path := prefix + strings.Join(parts[:i+1], ".")
			if _, ok := lines[path]; ok {
				continue
			}
			lines[path] = line
			parent := prefix
			if i > 0 {
				parent = prefix + strings.Join(parts[:i], ".") + "."
			}
			order[parent] = append(order[parent], parts[i])
		}
	}
	prefix := ""
	for p.NextExpression() {
		e := p.Expression()
		var parts []string
		line := 0
		for it := e.Key(); it.Next(); {
			k := it.Node()
			parts = append(parts, string(k.Data))
			if line == 0 {
				line = p.Shape(k.Raw).Start.Line
			}
		}
		switch e.Kind {
		case unstable.Table:
			note("", parts, line)
			prefix = strings.Join(parts, ".") + "."
		case unstable.ArrayTable:
			name := strings.Join(parts, ".")
			note("", parts, line)
			prefix = fmt.Sprintf("%s.%d.", name, counts[name])
			counts[name]++
		case unstable.KeyValue:
			note(prefix, parts, line)
		}
	}
	return lines, order
}

// unquotedValue matches `key = value` where value is a word TOML does not
// know (30s, 4GiB, sc): almost always a string without its quotes.
var unquotedValue = regexp.MustCompile(`^\s*([A-Za-z0-9_.-]+)\s*=\s*([0-9]*[A-Za-z][A-Za-z0-9_.-]*|[0-9][0-9_.]*[A-Za-z]+[A-Za-z0-9]*)\s*(#.*)?$`)

// syntaxError says what is wrong with a file go-toml refused, on its
// line, with the likely fix when a value lacks its quotes.
func syntaxError(src string, err error) error {
	var de *toml.DecodeError
	if !errors.As(err, &de) {
		return err
	}
	row, col := de.Position()
	msg := fmt.Sprintf("line %d, column %d: %s", row, col, strings.TrimPrefix(de.Error(), "toml: "))
	all := strings.Split(src, "\n")
	if row >= 1 && row <= len(all) {
		if m := unquotedValue.FindStringSubmatch(all[row-1]); m != nil && m[2] != "true" && m[2] != "false" {
			msg += fmt.Sprintf(" (TOML strings are quoted: %s = %q)", m[1], m[2])
		}
	}
	return errors.New(msg)
}
