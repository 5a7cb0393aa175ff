// Package memmodel holds augur's memory models: which value a read may
// return. Under sequential consistency (SC) it is the latest write; under
// Portend+'s weak ordering (section 4.5 of the paper, see Weak) it is any
// write happens-before does not hide. It also holds what both the weak
// model and the race detector build happens-before from: vector clocks
// and the synchronization operations.
package memmodel

import "fmt"

// Model is the memory model an execution runs, or a race is classified,
// under.
type Model uint8

const (
	SC   Model = iota // sequential consistency
	Weak              // Portend+'s weak ordering (SMCM)
)

var modelNames = [...]string{SC: "sc", Weak: "weak"}

func (m Model) String() string { return modelNames[m] }

// Parse reads a model's name: "sc" or "weak" ("" is SC).
func Parse(name string) (Model, error) {
	switch name {
	case "", "sc":
		return SC, nil
	case "weak":
		return Weak, nil
	}
	return SC, fmt.Errorf("unknown memory model %q (want sc or weak)", name)
}

// MarshalText writes the model's name (JSON reports and evidence).
func (m Model) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a model's name.
func (m *Model) UnmarshalText(b []byte) error {
	x, err := Parse(string(b))
	*m = x
	return err
}
