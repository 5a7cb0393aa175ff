package main

import (
	"fmt"
	"time"

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
