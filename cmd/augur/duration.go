package main

import "time"

// flagDuration is a duration flag shared through programFlags.
type flagDuration struct{ d time.Duration }

func (f *flagDuration) String() string { return f.d.String() }

func (f *flagDuration) Set(s string) error {
	d, err := time.ParseDuration(s)
	f.d = d
	return err
}
