package vm

import (
	"reflect"
	"testing"
)

// local are the Config fields that stay in the process that runs an
// execution; every other field must travel in a Spec.
var local = map[string]bool{"StdinReader": true, "Stdout": true, "Stderr": true, "Policy": true, "Monitor": true,
	"Symbolic": true, "PauseAtFork": true, "Weak": true, "ScheduleForks": true, "Cancel": true,
	"Interrupt": true, // the analysis cancels a job it interrupts (analyzer.Result.classify)
	"Account":   true, // the memory ledger is the process's
	"Room":      true, // detection shares it with the exploration beside it, both in one process
	"Models":    true} // the process running a job gives its machines its own table

// TestSpecCoversConfig fails when a field is added to Config (or Limits)
// without deciding whether it travels with a job: in Spec, or in local.
func TestSpecCoversConfig(t *testing.T) {
	spec := reflect.TypeFor[Spec]()
	var check func(reflect.Type)
	check = func(ty reflect.Type) {
		for i := 0; i < ty.NumField(); i++ {
			f := ty.Field(i)
			if f.Anonymous {
				check(f.Type)
				continue
			}
			if _, ok := spec.FieldByName(f.Name); !ok && !local[f.Name] {
				t.Errorf("Config.%s is neither in Spec nor process-local", f.Name)
			}
		}
	}
	check(reflect.TypeFor[Config]())
	c := Config{Args: []string{"p", "x"}, Stdin: []byte("in"), MaxInstructions: 7, SymArgs: []int{3}, Files: map[string][]byte{"f": []byte("d")}}
	c.MaxMemory = 1 << 20
	if back := c.Spec().Config(); !reflect.DeepEqual(back, c) {
		t.Errorf("Config -> Spec -> Config: %+v, want %+v", back, c)
	}
}
