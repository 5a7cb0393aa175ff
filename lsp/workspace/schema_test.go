package workspace

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"augur/analyzer/settings"
)

// The JSON schema of augur.toml that the VS Code extension ships (made
// from package.json and docs/configuration.md) names exactly the keys
// this package accepts, at the top and in [[target]], and every default
// it states is a value the setting accepts.
func TestTOMLSchemaMatchesTheKeysAccepted(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "vscode-extension", "schemas", "augur.toml.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	type props map[string]struct {
		Default any `json:"default"`
	}
	var schema struct {
		Properties props `json:"properties"`
	}
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	var target struct {
		Properties struct {
			Target struct {
				Items struct {
					Properties props `json:"properties"`
				} `json:"items"`
			} `json:"target"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(data, &target); err != nil {
		t.Fatal(err)
	}
	var accepted []string
	for _, s := range settings.Table {
		accepted = append(accepted, s.Key)
	}
	keys := func(p props) string {
		var out []string
		for k := range p {
			out = append(out, k)
		}
		sort.Strings(out)
		return strings.Join(out, " ")
	}
	want := func(extra ...string) string {
		all := append(append([]string(nil), accepted...), extra...)
		sort.Strings(all)
		return strings.Join(all, " ")
	}
	if got, want := keys(schema.Properties), want(append([]string{"target"}, topKeys...)...); got != want {
		t.Errorf("top-level keys in the schema:\n%s\nkeys augur.toml accepts:\n%s", got, want)
	}
	if got, want := keys(target.Properties.Target.Items.Properties), want(targetKeys...); got != want {
		t.Errorf("[[target]] keys in the schema:\n%s\nkeys a target accepts:\n%s", got, want)
	}
	for name, p := range schema.Properties {
		st := settings.Lookup(name)
		if st == nil || p.Default == nil {
			continue
		}
		v := p.Default
		if f, ok := v.(float64); ok { // JSON numbers; TOML integers are int64
			v = int64(f)
		}
		probe := settings.Defaults(settings.Editor)
		if err := st.Set(&probe, v); err != nil {
			t.Errorf("the schema's default of %s (%v) is refused: %v", name, p.Default, err)
		}
	}
}
