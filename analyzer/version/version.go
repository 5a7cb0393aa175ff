// Package version holds augur's own version, stamped by the Makefile.
package version

// Version is set at link time with -X augur/analyzer/version.Version=...;
// a plain `go build` leaves it as "dev".
var Version = "dev"
