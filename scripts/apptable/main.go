// Command apptable prints augur's results on the applications of
// Portend+'s evaluation beside the paper's own (its Tables III and IV),
// from the directory scripts/apps.sh wrote: for each application NAME,
// NAME.json (the `augur analyze --format json` report), NAME.seconds (the
// analysis's wall time), NAME.run-seconds (a plain `augur run`'s, the
// counterpart of the paper's Cloud9 column) and NAME.replayed (how many
// evidence files replayed, of how many). Applications without a report
// print as not run. Where scripts/apps.sh -s ran ThreadSanitizer too, it
// then compares the two detectors' races (tsan.go).
//
// It reads the report with a struct of its own rather than augur's report
// package: it checks the JSON contract as a user's script would.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// paper holds one row of Portend+'s Tables III and IV (ACM TOCS 2015,
// shared/papers/000_*).
type paper struct {
	name                        string
	distinct, instances         int
	spec, output, kw, single    int // k-witness harmless: states same + states differ
	cloud9, avg, minimum, maxim float64
}

var portend = []paper{
	{"sqlite", 1, 1, 1, 0, 0, 0, 3.10, 4.20, 4.09, 4.25},
	{"ocean", 5, 14, 0, 0, 1, 4, 19.64, 60.02, 19.90, 207.14},
	{"fmm", 13, 517, 0, 0, 1, 12, 24.87, 64.45, 65.29, 72.83},
	{"memcached", 18, 104, 0, 2, 0, 16, 73.87, 645.99, 619.32, 730.37},
	{"pbzip2", 31, 97, 3, 3, 0, 25, 15.30, 360.72, 61.36, 763.43},
	{"ctrace", 15, 19, 1, 10, 4, 0, 3.67, 24.29, 5.54, 41.08},
	{"bbuf", 6, 6, 0, 6, 0, 0, 1.81, 4.47, 4.77, 5.82},
}

// result is what apptable reads of one application's report.
type result struct {
	Races []struct {
		Category  string  `json:"category"`
		Instances int     `json:"instances"`
		Seconds   float64 `json:"classify_seconds"`
		Accesses  []struct {
			File     string `json:"file"`
			Line     int    `json:"line"`
			Function string `json:"function"`
		} `json:"accesses"`
	} `json:"races"`
	Failures []struct {
		Kind string `json:"kind"`
	} `json:"failures"`
	Stopped *struct {
		Message string `json:"message"`
	} `json:"stopped"`
	Incomplete []json.RawMessage `json:"incomplete"`
	Error      *struct {
		Message string `json:"message"`
	} `json:"error"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: apptable DIR (the output directory of scripts/apps.sh)")
		os.Exit(2)
	}
	if err := printTables(os.Stdout, os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "apptable:", err)
		os.Exit(1)
	}
}

func printTables(w io.Writer, dir string) error {
	reports := map[string]*result{} // the applications that ran
	for _, p := range portend {
		res, err := load(dir, p.name)
		if err != nil {
			return err
		}
		if res != nil {
			reports[p.name] = res
		}
	}
	fmt.Fprintln(w, "Table III: distinct races, instances and categories (augur | Portend+)")
	fmt.Fprintf(w, "%-10s %-11s %-11s %-9s %-9s %-9s %-9s %-9s %s\n", "program", "distinct", "instances",
		"spec", "output", "k-witness", "single", "unclass.", "notes")
	for _, p := range portend {
		res := reports[p.name]
		if res == nil {
			fmt.Fprintf(w, "%-10s not run\n", p.name)
			continue
		}
		n := count(res)
		fmt.Fprintf(w, "%-10s %-11s %-11s %-9s %-9s %-9s %-9s %-9d %s\n", p.name,
			pair(len(res.Races), p.distinct), pair(n["instances"], p.instances),
			pair(n["spec-violated"], p.spec), pair(n["output-differs"], p.output),
			pair(n["k-witness-harmless"], p.kw), pair(n["single-ordering"], p.single), n["unclassified"], notes(res, dir, p.name))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Table IV: time per race in seconds (augur | Portend+), and a plain run (augur run | Cloud9)")
	fmt.Fprintf(w, "%-10s %-15s %-17s %-17s %-17s %s\n", "program", "run", "avg", "min", "max", "analysis")
	for _, p := range portend {
		res := reports[p.name]
		if res == nil {
			continue
		}
		var times []float64
		for _, r := range res.Races {
			if r.Seconds > 0 {
				times = append(times, r.Seconds)
			}
		}
		avg, lo, hi := "-", "-", "-"
		if len(times) > 0 {
			sum := 0.0
			for _, t := range times {
				sum += t
			}
			avg, lo, hi = secs(sum/float64(len(times))), secs(slices.Min(times)), secs(slices.Max(times))
		}
		fmt.Fprintf(w, "%-10s %-15s %-17s %-17s %-17s %s\n", p.name,
			seconds(dir, p.name+".run-seconds")+" | "+secs(p.cloud9), avg+" | "+secs(p.avg), lo+" | "+secs(p.minimum),
			hi+" | "+secs(p.maxim), seconds(dir, p.name+".seconds")+" s")
	}
	return printTSan(w, dir, reports)
}

// load reads an application's report, or nil when it did not run.
func load(dir, name string) (*result, error) {
	data, err := os.ReadFile(filepath.Join(dir, name+".json"))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r result
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s.json: %w", name, err)
	}
	return &r, nil
}

// count tallies the races by category, and their instances.
func count(r *result) map[string]int {
	n := map[string]int{}
	for _, x := range r.Races {
		n[x.Category]++
		n["instances"] += x.Instances
	}
	return n
}

// notes says what else the report of application name holds (failures,
// gaps, an early stop), and how many of its evidence files replayed.
func notes(r *result, dir, name string) string {
	var out []string
	if r.Error != nil {
		out = append(out, "error: "+r.Error.Message)
	}
	if len(r.Failures) > 0 {
		kinds := map[string]int{}
		for _, f := range r.Failures {
			kinds[f.Kind]++
		}
		var ks []string
		for k, c := range kinds {
			ks = append(ks, fmt.Sprintf("%d %s", c, k))
		}
		slices.Sort(ks)
		out = append(out, "failures: "+strings.Join(ks, ", "))
	}
	if len(r.Incomplete) > 0 {
		out = append(out, fmt.Sprintf("%d gaps (incomplete)", len(r.Incomplete)))
	}
	if r.Stopped != nil {
		out = append(out, "stopped: "+r.Stopped.Message)
	}
	if data, err := os.ReadFile(filepath.Join(dir, name+".replayed")); err == nil {
		var ok, all int
		if _, err := fmt.Sscan(string(data), &ok, &all); err == nil && all > 0 {
			out = append(out, fmt.Sprintf("evidence replayed: %d of %d", ok, all))
		}
	}
	return strings.Join(out, "; ")
}

func pair(a, b int) string { return fmt.Sprintf("%d | %d", a, b) }

func secs(s float64) string { return strconv.FormatFloat(s, 'f', 2, 64) }

// seconds reads a file holding a number of seconds, or "-".
func seconds(dir, file string) string {
	data, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return "-"
	}
	s, err := strconv.ParseFloat(strings.TrimSpace(string(data)), 64)
	if err != nil {
		return "-"
	}
	return secs(s)
}
