// Package archtest holds tests about the repository as a whole: that
// docs/architecture.md's package graph is the graph the code imports.
package archtest
