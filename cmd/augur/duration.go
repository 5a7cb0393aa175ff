package main

import (
	"fmt"
	"strconv"
	"time"

	"augur/analyzer"
	"augur/internal/bytesize"
)

// flagDuration is a duration flag shared through programFlags.
type flagDuration struct{ d time.Duration }

func (f *flagDuration) String() string { return f.d.String() }

func (f *flagDuration) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err == nil && d < 0 {
		err = fmt.Errorf("negative duration %s", s)
	}
	f.d = d
	return err
}

// flagSize is a byte-count flag ("512MiB", "4GiB").
type flagSize struct{ n uint64 }

func (f *flagSize) String() string { return bytesize.Flag(f.n) }

func (f *flagSize) Set(s string) error {
	n, err := bytesize.Parse(s)
	f.n = n
	return err
}

// flagInstructions is --max-instructions: a count of instructions per
// execution (0: no limit), or auto (analyze's default: the budget follows
// the program, analyzer.Options.AutoInstructions).
type flagInstructions struct {
	n    uint64
	auto bool
}

func (f *flagInstructions) String() string {
	if f.auto {
		return "auto"
	}
	return strconv.FormatUint(f.n, 10)
}

func (f *flagInstructions) Set(s string) error {
	if s == "auto" {
		f.n, f.auto = 0, true
		return nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return fmt.Errorf("want a number of instructions or auto, not %q", s)
	}
	f.n, f.auto = n, false
	return nil
}

// exploreBudget is the analyzer's ExploreInstructions of
// --explore-instructions: auto is 0 (the budget follows the program), and
// 0 is no limit.
func (f *flagInstructions) exploreBudget() uint64 {
	switch {
	case f.auto:
		return 0
	case f.n == 0:
		return analyzer.NoExploreLimit
	}
	return f.n
}
