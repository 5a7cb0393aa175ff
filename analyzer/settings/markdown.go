package settings

import (
	"fmt"
	"strings"
)

// Markdown is the settings table of docs/configuration.md, made from
// Table: each setting's augur.toml key (the `augur analyze` flag), type,
// default, meaning and client setting.
func Markdown() string {
	var b strings.Builder
	b.WriteString("| augur.toml key | type | default | meaning | client setting |\n|---|---|---|---|---|\n")
	for _, s := range Table {
		def := markdownValue(s.defaultFor(Editor))
		if s.Fronts&CLI != 0 && s.EditorDefault != nil {
			def += "; `augur analyze`: " + markdownValue(s.Default)
		}
		doc := s.Doc
		if s.Fronts&CLI == 0 {
			doc += " (editor only)"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | `augur.%s` |\n", s.Key, s.Type, def, doc, s.Client)
	}
	return b.String()
}

// markdownValue writes a value as augur.toml would, in code.
func markdownValue(x any) string {
	switch d := x.(type) {
	case string:
		return fmt.Sprintf("`%q`", d)
	case []any:
		if len(d) == 0 {
			return "`[]`"
		}
	}
	return fmt.Sprint(x)
}
