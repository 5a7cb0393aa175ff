// Command augur finds the data races in C/C++ programs that matter.
//
//	augur run [flags] FILES... [-- ARGS...]       interpret the program
//	augur analyze --detect-only [flags] FILES...  detect races and deadlocks
//	augur version                                 print versions
package main

import (
	"fmt"
	"os"
)

const usage = `usage: augur <command> [flags] [arguments]

commands:
  run FILES... [-- ARGS...]   run the program in augur's interpreter, as if built natively
  analyze --detect-only FILES... [-- ARGS...]
                              detect data races, deadlocks and lock-order inversions
                              under several schedules (text, JSON or SARIF report)
  version                     print augur's version and the toolchain it uses

Run 'augur <command> -h' for a command's flags.
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	switch os.Args[1] {
	case "run":
		os.Exit(runCmd(os.Args[2:]))
	case "analyze":
		os.Exit(analyzeCmd(os.Args[2:]))
	case "version", "--version":
		os.Exit(versionCmd())
	case "help", "-h", "--help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "augur: unknown command %q\n\n%s", os.Args[1], usage)
		os.Exit(2)
	}
}
