package vm

import "time"

// Spec is the part of a Config that is plain data: the program's inputs
// and the budgets, everything another process needs to run the same
// execution. What is left out belongs to the process that runs it (where
// output goes, the monitor, the scheduling policy, the symbolic state,
// the cancellation) and is set there.
type Spec struct {
	Args               []string          `json:"args"`
	Env                []string          `json:"env,omitempty"`
	Stdin              []byte            `json:"stdin,omitempty"`
	Clients            [][]string        `json:"clients,omitempty"`
	Files              map[string][]byte `json:"files,omitempty"`
	StdoutLineBuffered bool              `json:"stdout_line_buffered,omitempty"`
	Seed               uint64            `json:"seed,omitempty"`
	MaxInstructions    uint64            `json:"max_instructions,omitempty"`
	PreemptAccesses    bool              `json:"preempt_accesses,omitempty"`
	PreemptAt          []string          `json:"preempt_at,omitempty"`
	PreemptAfterReads  bool              `json:"preempt_after_reads,omitempty"`
	LockQuantumAfter   int               `json:"lock_quantum_after,omitempty"`
	SymArgs            []int             `json:"sym_args,omitempty"`
	SymStdin           int               `json:"sym_stdin,omitempty"`
	SymFiles           map[string]int    `json:"sym_files,omitempty"`
	Inputs             map[string]uint64 `json:"inputs,omitempty"`
	MaxOutput          int               `json:"max_output,omitempty"`
	Undefined          UndefinedPolicy   `json:"undefined,omitempty"`
	// Timeout, Deadline, TimeBudget and MaxMemory are the Limits that
	// travel: a deadline is a point in time, so machines that share one
	// must have synchronized clocks.
	Timeout    time.Duration `json:"timeout,omitempty"`
	Deadline   time.Time     `json:"deadline,omitzero"`
	TimeBudget time.Duration `json:"time_budget,omitempty"`
	MaxMemory  uint64        `json:"max_memory,omitempty"`
	// MemoryHint is Config.MemoryHint: what an execution is expected to
	// hold, by which parallel work waits for room under MaxMemory.
	MemoryHint uint64 `json:"memory_hint,omitempty"`
}

// Spec returns the plain-data part of c.
func (c *Config) Spec() Spec {
	return Spec{Args: c.Args, Env: c.Env, Stdin: c.Stdin, Clients: c.Clients, Files: c.Files, StdoutLineBuffered: c.StdoutLineBuffered,
		Seed: c.Seed, MaxInstructions: c.MaxInstructions, PreemptAccesses: c.PreemptAccesses, PreemptAt: c.PreemptAt, PreemptAfterReads: c.PreemptAfterReads,
		LockQuantumAfter: c.LockQuantumAfter,
		SymArgs:          c.SymArgs, SymStdin: c.SymStdin, SymFiles: c.SymFiles, Inputs: c.Inputs, MaxOutput: c.MaxOutput, Undefined: c.Undefined,
		Timeout: c.Timeout, Deadline: c.Deadline, TimeBudget: c.TimeBudget, MaxMemory: c.MaxMemory, MemoryHint: c.MemoryHint}
}

// Config returns a configuration running s, with nothing of the process
// that runs it set (no output, monitor, policy or cancellation).
func (s Spec) Config() Config {
	return Config{Args: s.Args, Env: s.Env, Stdin: s.Stdin, Clients: s.Clients, Files: s.Files, StdoutLineBuffered: s.StdoutLineBuffered,
		Seed: s.Seed, MaxInstructions: s.MaxInstructions, PreemptAccesses: s.PreemptAccesses, PreemptAt: s.PreemptAt, PreemptAfterReads: s.PreemptAfterReads,
		LockQuantumAfter: s.LockQuantumAfter,
		SymArgs:          s.SymArgs, SymStdin: s.SymStdin, SymFiles: s.SymFiles, Inputs: s.Inputs, MaxOutput: s.MaxOutput, Undefined: s.Undefined,
		MemoryHint: s.MemoryHint, Limits: Limits{Timeout: s.Timeout, Deadline: s.Deadline, TimeBudget: s.TimeBudget, MaxMemory: s.MaxMemory}}
}
