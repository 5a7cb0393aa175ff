package vm

// SetHangProbes turns the periodic hang probes on or off, to measure what
// they cost. Not safe while a machine runs.
func SetHangProbes(on bool) { noHangProbes = !on }
