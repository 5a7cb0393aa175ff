// Package workspace decides what the language server analyzes: the
// targets of a workspace (from augur.toml, or one per opened file that
// defines main), their compile flags (from compile_commands.json, found as
// clangd finds it) and the analysis settings (built-in defaults, then the
// client's settings, then augur.toml). It knows nothing of LSP messages.
package workspace

import (
	"fmt"

	"augur/analyzer/settings"
)

// budgetSettings are the settings (augur.toml names) that raise each
// budget a report names: "instructions", "time", "memory".
var budgetSettings = map[string]string{"instructions": "max-instructions", "time": "timeout", "memory": "max-memory"}

// RaiseHint tells an editor user how to raise a budget: the client
// setting and the augur.toml key, never a command-line flag.
func RaiseHint(budget string) string {
	st := settings.Lookup(budgetSettings[budget])
	if st == nil {
		return "raise the budget in the settings"
	}
	return fmt.Sprintf("raise augur.%s in the editor's settings (%s in augur.toml)", st.Client, st.Key)
}

// ApplyJSON sets in s the options a client sent (initializationOptions or the
// "augur" section of workspace/didChangeConfiguration), decoded from JSON
// into a map. Unknown keys are returned as warnings, not errors: a newer
// extension may send settings an older server does not know.
func ApplyJSON(s *settings.Values, m map[string]any) (warnings []string, err error) {
	if inner, ok := m["augur"].(map[string]any); ok {
		m = inner
	}
	for k, v := range m {
		st := settings.LookupClient(k)
		if st == nil {
			if !clientOnly[k] {
				warnings = append(warnings, fmt.Sprintf("unknown setting augur.%s ignored", k))
			}
			continue
		}
		if v == nil {
			continue
		}
		if err := st.Set(s, v); err != nil {
			return warnings, fmt.Errorf("setting augur.%s: %w", k, err)
		}
	}
	return warnings, nil
}

// clientOnly are settings of the VS Code extension itself, sent along with
// the rest, that the server has no use for.
var clientOnly = map[string]bool{"path": true, "arguments": true, "trace": true}
