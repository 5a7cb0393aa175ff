package vm

// SetHangProbes turns the periodic hang probes on or off, to measure what
// they cost. Not safe while a machine runs.
func SetHangProbes(on bool) { noHangProbes = !on }

// NewMark hands out the next quiet mark of m's block (quiet.go).
func NewMark(m *Machine) uint64 { return m.marks.newMark() }

// MarkBlock is how many marks a machine takes at a time.
const MarkBlock = markBlock
