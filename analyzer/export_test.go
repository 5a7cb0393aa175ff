package analyzer

import (
	"augur/analyzer/frontend/ir"
	"augur/analyzer/judge/classify"
)

// SettingsKey is settingsKey, for tests that open a history themselves.
func SettingsKey(o *Options) string { return o.settingsKey() }

// ClassifyOptions are the options res's races were classified with.
func ClassifyOptions(res *Result, prog *ir.Program) (classify.Options, error) {
	return (&analysis{Result: res}).classifyOptions(prog)
}

// ReadsStdin is readsStdin, for the test of which programs get a
// standard input explored.
func ReadsStdin(prog *ir.Program) bool { return readsStdin(prog) }
