// Package sysmem says how much memory the machine can give a process, for
// the default memory budget: what is available now (MemAvailable in
// /proc/meminfo), bounded by the cgroup's limit when the process runs in
// a container, not a fixed size that a small machine cannot give.
package sysmem

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// Share is the part of the available memory the default budget takes,
// in quarters: half leaves room for the editor, the compiler, augur's
// own floor and the transient copies a growing file or table makes.
const Share = 2

// Floor and Ceiling bound the default budget: below the floor an
// analysis of a small program cannot run; above the ceiling one
// execution holding more is a runaway (a symbolic expression growing
// without end), not a program under analysis.
const (
	Floor   = 512 << 20
	Ceiling = 8 << 30
)

// DefaultBudget is the default memory budget: Share quarters of the
// memory available, between Floor and Ceiling (Floor when nothing can be
// read: a machine without /proc).
func DefaultBudget() uint64 {
	avail := Available()
	if avail == 0 {
		return Floor
	}
	return min(max(avail/4*Share, Floor), Ceiling)
}

// Available is the memory the process can use now, in bytes (0 when
// unknown): MemAvailable, or the cgroup's limit less its usage when that
// is smaller.
func Available() uint64 {
	avail := meminfo("/proc/meminfo", "MemAvailable")
	if limit, ok := cgroupValue("/sys/fs/cgroup/memory.max"); ok {
		used, _ := cgroupValue("/sys/fs/cgroup/memory.current")
		if limit > used && (avail == 0 || limit-used < avail) {
			avail = limit - used
		}
	}
	return avail
}

// meminfo reads a "Name: N kB" line of /proc/meminfo.
func meminfo(path, name string) uint64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || k != name {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if err != nil {
			return 0
		}
		return n << 10
	}
	return 0
}

// cgroupValue reads a cgroup v2 file holding a number ("max": no limit).
func cgroupValue(path string) (uint64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	return n, err == nil
}
