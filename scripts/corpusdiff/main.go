// Command corpusdiff checks that a change to augur left its answers alone:
// it analyzes every C and C++ program of the given testdata directories
// with two augur binaries (`augur analyze --format json --explore-time 0`,
// which fixes the exploration by its plan rather than by wall time) and
// compares the reports with their timing fields taken out: races,
// categories, k, instances, outputs, failures, schedules and instruction
// counts must be the same. It prints each program whose reports differ,
// with its differences, and ends with how many of how many differ; it
// exits 1 when any does.
//
//	go run ./scripts/corpusdiff -old /tmp/augur-before -new bin/augur [DIR...]
//
// With -explore it checks a change to the exploration instead: both
// binaries explore with their defaults, bounded by counts alone
// (`--explore-time 10m`), and only what was found is compared: each
// race's id and category, each failure's kind, message and line, and the
// exit status. How many schedules found them may differ.
//
// Without directories it takes the corpus the interpreter's changes are
// checked on: testdata/{race,classify,explore,recall,weak,crash,sched,run}.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	"augur/internal/testutil"
)

// explore is the -explore flag.
var explore bool

var defaultDirs = []string{"race", "classify", "explore", "recall", "weak", "crash", "sched", "run"}

func main() {
	oldBin := flag.String("old", "", "the augur binary before the change")
	newBin := flag.String("new", "bin/augur", "the augur binary after the change")
	jobs := flag.Int("j", 2, "analyses run at once")
	flag.BoolVar(&explore, "explore", false, "explore schedules and compare only the races and failures found")
	flag.Parse()
	if *oldBin == "" {
		fmt.Fprintln(os.Stderr, "corpusdiff: -old is required")
		os.Exit(2)
	}
	dirs := flag.Args()
	if len(dirs) == 0 {
		for _, d := range defaultDirs {
			dirs = append(dirs, filepath.Join("testdata", d))
		}
	}
	progs, err := programs(dirs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "corpusdiff:", err)
		os.Exit(2)
	}
	diffs := make([]string, len(progs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(*jobs, 1))
	for i, p := range progs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			diffs[i] = compare(*oldBin, *newBin, p)
		}()
	}
	wg.Wait()
	n := 0
	for i, d := range diffs {
		if d != "" {
			n++
			fmt.Printf("%s: %s\n", progs[i], d)
		}
	}
	fmt.Printf("%d of %d programs differ\n", n, len(progs))
	if n > 0 {
		os.Exit(1)
	}
}

// programs lists the C and C++ sources of dirs, sorted.
func programs(dirs []string) ([]string, error) {
	var out []string
	for _, d := range dirs {
		ents, err := os.ReadDir(d)
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", d, err)
		}
		for _, e := range ents {
			switch filepath.Ext(e.Name()) {
			case ".c", ".cc", ".cpp":
				out = append(out, filepath.Join(d, e.Name()))
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// compare analyzes prog with both binaries and describes where their
// reports differ, or returns "".
func compare(oldBin, newBin, prog string) string {
	a, errA := analyze(oldBin, prog)
	b, errB := analyze(newBin, prog)
	if errA != nil || errB != nil {
		if fmt.Sprint(errA) == fmt.Sprint(errB) {
			return ""
		}
		return fmt.Sprintf("old: %v; new: %v", errA, errB)
	}
	var diffs []string
	diff("", a, b, &diffs)
	switch {
	case len(diffs) == 0:
		return ""
	case len(diffs) > maxDiffs:
		return strings.Join(diffs[:maxDiffs], "; ") + fmt.Sprintf("; and %d more", len(diffs)-maxDiffs)
	}
	return strings.Join(diffs, "; ")
}

// maxDiffs is how many differences of one program's reports are printed.
const maxDiffs = 6

// analyze runs one analysis and returns its report without timing fields,
// with its exit status in "exit".
func analyze(bin, prog string) (map[string]any, error) {
	explored := "0"
	if explore {
		explored = "10m"
	}
	args := []string{"analyze", "--format", "json", "--explore-time", explored}
	for _, f := range testutil.CFlags(prog) {
		args = append(args, "--cflag="+f)
	}
	cmd := exec.Command(bin, append(args, prog)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	status := 0
	if ee, ok := err.(*exec.ExitError); ok {
		status = ee.ExitCode()
	} else if err != nil {
		return nil, err
	}
	var rep map[string]any
	if jerr := json.Unmarshal(out.Bytes(), &rep); jerr != nil {
		return nil, fmt.Errorf("exit %d, no report: %s", status, strings.TrimSpace(errb.String()))
	}
	dropTiming(rep)
	if explore {
		rep = findings(rep)
	}
	rep["exit"] = float64(status)
	return rep, nil
}

// findings keeps of a report what an exploration found: the races by id
// and category, the failures by kind, message and line.
func findings(rep map[string]any) map[string]any {
	keep := func(list any, fields ...string) []any {
		var out []any
		items, _ := list.([]any)
		for _, it := range items {
			m, _ := it.(map[string]any)
			k := map[string]any{}
			for _, f := range fields {
				k[f] = m[f]
			}
			out = append(out, k)
		}
		return out
	}
	return map[string]any{"races": keep(rep["races"], "id", "category"), "failures": keep(rep["failures"], "kind", "message", "line")}
}

// dropTiming removes the fields that measure wall time, which differ
// between any two runs.
func dropTiming(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if strings.HasSuffix(k, "seconds") || k == "elapsed" {
				delete(v, k)
				continue
			}
			dropTiming(x)
		}
	case []any:
		for _, x := range v {
			dropTiming(x)
		}
	}
}

// diff appends to out where a and b differ, below path: every leaf
// that differs, or an array's length.
func diff(path string, a, b any, out *[]string) {
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: %v against %v", path, a, b))
			return
		}
		keys := make([]string, 0, len(av)+len(bv))
		for k := range av {
			keys = append(keys, k)
		}
		for k := range bv {
			if _, ok := av[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			diff(path+"."+k, av[k], bv[k], out)
		}
		return
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			*out = append(*out, fmt.Sprintf("%s: %d elements against %v", path, len(av), describeLen(b)))
			return
		}
		for i := range av {
			diff(fmt.Sprintf("%s[%d]", path, i), av[i], bv[i], out)
		}
		return
	}
	if !reflect.DeepEqual(a, b) {
		*out = append(*out, fmt.Sprintf("%s: %v against %v", path, a, b))
	}
}

func describeLen(v any) string {
	if s, ok := v.([]any); ok {
		return fmt.Sprintf("%d elements", len(s))
	}
	return fmt.Sprint(v)
}
