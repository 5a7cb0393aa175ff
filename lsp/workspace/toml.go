package workspace

import (
	"fmt"
	"strconv"
	"strings"
)

// This file reads the part of TOML (v1.0) that augur.toml needs: comments,
// `key = value` pairs, `[table]` headers and `[[array-of-tables]]` headers,
// with basic and literal strings, integers, booleans and (possibly
// multi-line) arrays of those. Anything else (dotted keys, inline tables,
// floats, dates, multi-line strings) is refused with its line number, not
// misread.

// tomlTable is one table: its keys in file order and their values
// (string, int64, bool or []any).
type tomlTable struct {
	keys   []string
	values map[string]any
	lines  map[string]int // where each key was set, for error messages
}

func newTable() *tomlTable {
	return &tomlTable{values: map[string]any{}, lines: map[string]int{}}
}

// tomlDoc is a parsed file: the root table, named tables and arrays of
// tables.
type tomlDoc struct {
	root   *tomlTable
	tables map[string]*tomlTable
	arrays map[string][]*tomlTable
}

// parseTOML parses src; errors name the line.
func parseTOML(src string) (*tomlDoc, error) {
	doc := &tomlDoc{root: newTable(), tables: map[string]*tomlTable{}, arrays: map[string][]*tomlTable{}}
	cur := doc.root
	p := &tomlParser{src: src, line: 1}
	for {
		p.skipBlank()
		if p.eof() {
			return doc, nil
		}
		switch {
		case strings.HasPrefix(p.rest(), "[["):
			p.pos += 2
			name, err := p.key()
			if err != nil {
				return nil, err
			}
			if !p.consume("]]") {
				return nil, p.errorf("expected ]] after [[%s", name)
			}
			if _, ok := doc.tables[name]; ok {
				return nil, p.errorf("[[%s]] was already defined as a table [%s]", name, name)
			}
			cur = newTable()
			doc.arrays[name] = append(doc.arrays[name], cur)
		case p.peek() == '[':
			p.pos++
			name, err := p.key()
			if err != nil {
				return nil, err
			}
			if !p.consume("]") {
				return nil, p.errorf("expected ] after [%s", name)
			}
			if _, ok := doc.tables[name]; ok {
				return nil, p.errorf("table [%s] is defined twice", name)
			}
			if _, ok := doc.arrays[name]; ok {
				return nil, p.errorf("[%s] was already defined as an array of tables [[%s]]", name, name)
			}
			cur = newTable()
			doc.tables[name] = cur
		default:
			line := p.line
			k, err := p.key()
			if err != nil {
				return nil, err
			}
			p.skipSpace()
			if !p.consume("=") {
				return nil, p.errorf("expected = after key %q", k)
			}
			p.skipSpace()
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			if _, dup := cur.values[k]; dup {
				return nil, fmt.Errorf("line %d: key %q is set twice in the same table", line, k)
			}
			cur.keys = append(cur.keys, k)
			cur.values[k] = v
			cur.lines[k] = line
		}
		if err := p.endOfLine(); err != nil {
			return nil, err
		}
	}
}

type tomlParser struct {
	src  string
	pos  int
	line int
}

func (p *tomlParser) eof() bool    { return p.pos >= len(p.src) }
func (p *tomlParser) rest() string { return p.src[p.pos:] }

func (p *tomlParser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.src[p.pos]
}

func (p *tomlParser) errorf(format string, args ...any) error {
	return fmt.Errorf("line %d: %s", p.line, fmt.Sprintf(format, args...))
}

func (p *tomlParser) consume(s string) bool {
	if strings.HasPrefix(p.rest(), s) {
		p.pos += len(s)
		return true
	}
	return false
}

func (p *tomlParser) skipSpace() {
	for !p.eof() && (p.peek() == ' ' || p.peek() == '\t') {
		p.pos++
	}
}

// skipBlank skips spaces, newlines and comments.
func (p *tomlParser) skipBlank() {
	for !p.eof() {
		switch c := p.peek(); {
		case c == ' ' || c == '\t' || c == '\r':
			p.pos++
		case c == '\n':
			p.pos++
			p.line++
		case c == '#':
			for !p.eof() && p.peek() != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

// endOfLine accepts trailing spaces and a comment before the newline.
func (p *tomlParser) endOfLine() error {
	p.skipSpace()
	if p.peek() == '#' {
		for !p.eof() && p.peek() != '\n' {
			p.pos++
		}
	}
	p.consume("\r")
	if p.eof() || p.peek() == '\n' {
		return nil
	}
	return p.errorf("unexpected %q after the value", p.rest()[:min(10, len(p.rest()))])
}

func isBareKey(c byte) bool {
	return c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// key reads a bare or quoted key; dotted keys are refused.
func (p *tomlParser) key() (string, error) {
	p.skipSpace()
	var k string
	switch p.peek() {
	case '"', '\'':
		s, err := p.str()
		if err != nil {
			return "", err
		}
		k = s
	default:
		start := p.pos
		for !p.eof() && isBareKey(p.peek()) {
			p.pos++
		}
		if p.pos == start {
			return "", p.errorf("expected a key, found %q", p.rest()[:min(10, len(p.rest()))])
		}
		k = p.src[start:p.pos]
	}
	p.skipSpace()
	if p.peek() == '.' {
		return "", p.errorf("dotted keys (%s.…) are not supported in augur.toml; use a [table] header", k)
	}
	return k, nil
}

// value reads a string, integer, boolean or array.
func (p *tomlParser) value() (any, error) {
	switch c := p.peek(); {
	case c == '"' || c == '\'':
		if strings.HasPrefix(p.rest(), `"""`) || strings.HasPrefix(p.rest(), "'''") {
			return nil, p.errorf("multi-line strings are not supported in augur.toml")
		}
		return p.str()
	case c == '[':
		return p.array()
	case c == '{':
		return nil, p.errorf("inline tables are not supported in augur.toml; use a [table] header")
	case strings.HasPrefix(p.rest(), "true"):
		p.pos += 4
		return true, nil
	case strings.HasPrefix(p.rest(), "false"):
		p.pos += 5
		return false, nil
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		start := p.pos
		p.pos++
		for !p.eof() && (isBareKey(p.peek()) || p.peek() == '.' || p.peek() == '+' || p.peek() == ':') {
			p.pos++
		}
		text := strings.ReplaceAll(p.src[start:p.pos], "_", "")
		n, err := strconv.ParseInt(text, 0, 64)
		if err != nil {
			return nil, p.errorf("%q is not an integer (floats and dates are not supported in augur.toml)", p.src[start:p.pos])
		}
		return n, nil
	case c == 0 || c == '\n':
		return nil, p.errorf("missing value")
	}
	return nil, p.errorf("unexpected %q: want a string, integer, boolean or array", p.rest()[:min(10, len(p.rest()))])
}

// array reads [v, v, ...], across lines, with comments and a trailing
// comma allowed.
func (p *tomlParser) array() ([]any, error) {
	p.pos++ // [
	out := []any{}
	for {
		p.skipBlank()
		if p.consume("]") {
			return out, nil
		}
		if p.eof() {
			return nil, p.errorf("unterminated array")
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		p.skipBlank()
		if p.eof() {
			return nil, p.errorf("unterminated array")
		}
		if p.consume(",") {
			continue
		}
		if p.consume("]") {
			return out, nil
		}
		return nil, p.errorf("expected , or ] in array")
	}
}

// str reads a basic ("...", with escapes) or literal ('...') string.
func (p *tomlParser) str() (string, error) {
	quote := p.peek()
	p.pos++
	var b strings.Builder
	for {
		if p.eof() || p.peek() == '\n' {
			return "", p.errorf("unterminated string")
		}
		c := p.peek()
		p.pos++
		switch {
		case c == quote:
			return b.String(), nil
		case c == '\\' && quote == '"':
			if p.eof() {
				return "", p.errorf("unterminated string")
			}
			e := p.peek()
			p.pos++
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '"', '\\':
				b.WriteByte(e)
			case 'u', 'U':
				n := 4
				if e == 'U' {
					n = 8
				}
				if p.pos+n > len(p.src) {
					return "", p.errorf("short \\%c escape", e)
				}
				r, err := strconv.ParseUint(p.src[p.pos:p.pos+n], 16, 32)
				if err != nil {
					return "", p.errorf("bad \\%c escape", e)
				}
				b.WriteRune(rune(r))
				p.pos += n
			default:
				return "", p.errorf("unknown escape \\%c", e)
			}
		default:
			b.WriteByte(c)
		}
	}
}
