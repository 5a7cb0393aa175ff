// Command augur finds the data races in C/C++ programs that matter.
//
//	augur run [flags] FILES... [-- ARGS...]       interpret the program
//	augur analyze [flags] FILES...                detect and classify races
//	augur replay EVIDENCE                         replay a race's evidence
//	augur lsp                                     the language server, on stdio
//	augur version                                 print versions
package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"runtime/pprof"

	"augur/analyzer/output/report"
)

const usage = `usage: augur <command> [flags] [arguments]

commands:
  run FILES... [-- ARGS...]   run the program in augur's interpreter, as if built natively
  analyze FILES... [-- ARGS...]
                              find data races, deadlocks and lock-order inversions and
                              classify each race's consequence (text, JSON or SARIF report)
  replay EVIDENCE             re-execute a harmful race's evidence and show the interleaving
  lsp                         run the language server on standard input and output
  worker nats://HOST:PORT     classify races for analyze --workers on other machines
  version                     print augur's version and the toolchain it uses

Run 'augur <command> -h' for a command's flags.
`

// exitBudget is the exit status of a command that could not finish its
// analysis: a budget stopped it (its report says how far it got), a build
// ran out of time, or executions stopped at calls augur cannot follow
// (report.ExitIncomplete; the report lists them under "incomplete").
const exitBudget = report.ExitIncomplete

func main() {
	if os.Getenv("GOGC") == "" {
		// The interpreted program's objects are long-lived Go objects: a
		// heap allowed to grow to twice the live data before a collection
		// makes the resident size follow peaks loosely, at no measurable
		// speed gain (binary-trees: same time, 142 MB instead of 166 MB).
		debug.SetGCPercent(50)
	}
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	stop := watchHeap(os.Getenv("AUGUR_HEAPPROFILE"))
	status := profiled(os.Getenv("AUGUR_CPUPROFILE"), command)
	stop()
	os.Exit(status)
}

// profiled runs cmd, writing a CPU profile to file when it is set (for
// the engineers: AUGUR_CPUPROFILE=cpu.out augur analyze ...; go tool
// pprof cpu.out).
func profiled(file string, cmd func() int) int {
	if file == "" {
		return cmd()
	}
	f, err := os.Create(file)
	if err != nil {
		fmt.Fprintf(os.Stderr, "augur: AUGUR_CPUPROFILE: %v\n", err)
		return cmd()
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "augur: AUGUR_CPUPROFILE: %v\n", err)
		return cmd()
	}
	defer pprof.StopCPUProfile()
	return cmd()
}

// command runs the command os.Args names and returns its exit status.
func command() int {
	switch os.Args[1] {
	case "run":
		return runCmd(os.Args[2:])
	case "analyze":
		return analyzeCmd(os.Args[2:])
	case "replay":
		return replayCmd(os.Args[2:])
	case "lsp":
		return lspCmd(os.Args[2:])
	case "worker":
		return workerCmd(os.Args[2:])
	case "version", "--version":
		return versionCmd()
	case "help", "-h", "--help":
		fmt.Print(usage)
		return 0
	default:
		fmt.Fprintf(os.Stderr, "augur: unknown command %q\n\n%s", os.Args[1], usage)
		return 2
	}
}
