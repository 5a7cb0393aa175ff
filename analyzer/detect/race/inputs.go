package race

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"augur/analyzer/exec/vm"
)

// Inputs are the concrete inputs of an execution that differ from the
// analysis's own: the inputs of a path that the exploration of symbolic
// inputs found (race-directed input selection). A race found under them
// carries them, so that classification and evidence replay it there.
// The shape is symex.Inputs', so either converts to the other.
type Inputs struct {
	Args  []string          `json:"args"`
	Stdin string            `json:"stdin,omitempty"`
	Files map[string]string `json:"files,omitempty"`
	Vars  map[string]uint64 `json:"vars,omitempty"`
}

// Apply returns cfg running on these inputs: argv after argv[0], standard
// input when the run reads it symbolically or the inputs give some, the
// files they name, and the values of named inputs.
func (in *Inputs) Apply(cfg vm.Config) vm.Config {
	if in == nil {
		return cfg
	}
	if in.Args != nil {
		argv0 := ""
		if len(cfg.Args) > 0 {
			argv0 = cfg.Args[0]
		}
		cfg.Args = append([]string{argv0}, in.Args...)
	}
	if in.Stdin != "" || cfg.SymStdin > 0 {
		cfg.Stdin = []byte(in.Stdin)
	}
	if len(in.Files) > 0 {
		files := make(map[string][]byte, len(cfg.Files)+len(in.Files))
		for n, d := range cfg.Files {
			files[n] = d
		}
		for n, d := range in.Files {
			files[n] = []byte(d)
		}
		cfg.Files = files
	}
	cfg.Inputs = in.Vars
	return cfg
}

// String describes the inputs in a sentence's words: "x=7 y=29".
func (in *Inputs) String() string {
	if in == nil {
		return "the analysis's inputs"
	}
	names := make([]string, 0, len(in.Vars))
	for n := range in.Vars {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	if len(in.Args) > 0 {
		parts = append(parts, fmt.Sprintf("args %q", in.Args))
	}
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s=%d", n, int64(in.Vars[n])))
	}
	if len(parts) == 0 {
		return "the seed inputs"
	}
	return strings.Join(parts, " ")
}

// Key identifies the inputs ("" for the analysis's own): equal inputs
// have equal keys.
func (in *Inputs) Key() string {
	if in == nil {
		return ""
	}
	b, _ := json.Marshal(in) // maps marshal in key order
	return string(b)
}
