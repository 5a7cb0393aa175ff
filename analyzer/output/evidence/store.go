package evidence

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"augur/analyzer/detect/race"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/build"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/judge/classify"
)

// A Store is where an analysis writes the evidence `augur replay` reads:
// a directory that serves many programs, each file named by what it
// replays and by the program's key, so that one program's evidence never
// replaces another's.
type Store struct {
	Dir     string
	Sources []string  // the program's files
	Run     vm.Config // the template of the analysis's executions
	// Build is how the program was built (its flags and client programs),
	// which the evidence records so that a replay builds it the same way.
	Build build.Options
}

// Race writes the evidence of race r when its verdict v is harmful and
// the store has a directory, and returns its path ("" otherwise). A
// failure leaves the race its category; only the replay file is missing.
func (s Store) Race(r *race.Race, v *classify.Verdict) (string, error) {
	if s.Dir == "" || !v.Harmful() {
		return "", nil
	}
	ev, err := s.withBuild(FromVerdict(r, v, s.Sources, s.Run))
	if err != nil {
		return "", err
	}
	path := s.racePath(r)
	if err := ev.Write(path); err != nil {
		return "", err
	}
	return path, nil
}

// Forget removes the evidence Race wrote for r, whose verdict is no
// longer harmful (classify.Attribute gave its failure to another race).
func (s Store) Forget(r *race.Race) error {
	if s.Dir == "" {
		return nil
	}
	if err := os.Remove(s.racePath(r)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// racePath is where the evidence of race r is written.
func (s Store) racePath(r *race.Race) string {
	return filepath.Join(s.Dir, "race-"+r.ID+"-"+ProgramKey(s.Sources)+".json")
}

// Failures writes the evidence of every failure (see Failures) when the
// store has a directory, and removes the program's failure evidence of
// earlier analyses: the directory holds the failures of the latest. It
// returns the files written by FailureKey, and a warning for each failure
// whose evidence could not be written.
func (s Store) Failures(failures []*race.Failure) (paths map[string]string, warnings []string) {
	if s.Dir == "" {
		return nil, nil
	}
	program := ProgramKey(s.Sources)
	old, _ := filepath.Glob(filepath.Join(s.Dir, "failure-*-"+program+".json"))
	for _, f := range failures {
		key := FailureKey(f.Kind, f.Message, f.Loc)
		ev, err := s.withBuild(FromFailure(f, s.Sources, s.Run))
		if err == nil {
			path := filepath.Join(s.Dir, "failure-"+key+"-"+program+".json")
			if err = ev.Write(path); err == nil {
				if paths == nil {
					paths = map[string]string{}
				}
				paths[key] = path
				continue
			}
		}
		warnings = append(warnings, fmt.Sprintf("evidence for the %s at %s: %v", f.Kind, f.Loc, err))
	}
	kept := map[string]bool{}
	for _, path := range paths {
		kept[path] = true
	}
	for _, path := range old {
		if !kept[path] {
			os.Remove(path)
		}
	}
	return paths, warnings
}

// withBuild records in evidence just made how the program was built.
func (s Store) withBuild(ev *Evidence, err error) (*Evidence, error) {
	if err != nil {
		return nil, err
	}
	if err := ev.Program.SetBuild(s.Build.Flags, s.Build.FileFlags); err != nil {
		return ev, err
	}
	return ev, ev.Program.SetClients(s.Build.Clients)
}

// Failures are every failure of an analysis that can have evidence: the
// ones detection's schedules reached (det, with their schedules), then
// the ones the exploration of inputs found, made concrete (inputs). Calls
// augur cannot follow are gaps in the analysis, not failures.
func Failures(det *race.Result, inputs []*race.Failure) []*race.Failure {
	var out []*race.Failure
	if det != nil {
		for _, f := range det.Failures {
			if f.Kind != vm.TermUnsupported {
				out = append(out, f)
			}
		}
	}
	return append(out, inputs...)
}

// FailureKey names a failure by what it is (race.FailureID), as the
// report lists each failure once, for the name of its evidence file.
func FailureKey(kind vm.TermKind, message string, loc ir.Loc) string {
	h := sha256.Sum256([]byte(race.FailureID(kind, message, loc)))
	return kind.String() + "-" + hex.EncodeToString(h[:4])
}
