package vm

import (
	"fmt"
	"sort"
	"strings"
)

// The analyzed program never sees the host's environment (a workspace's
// program must not read the user's tokens from getenv): it gets a small
// environment of its own, plus what the user adds (--env, augur.toml's
// env), as it gets a virtual file system rather than the disk.

// DefaultEnv is the environment every analyzed program starts with.
var DefaultEnv = []string{
	"HOME=/home/augur",
	"LANG=C.UTF-8",
	"LOGNAME=augur",
	"PATH=/usr/local/bin:/usr/bin:/bin",
	"PWD=/", // what getcwd says: the root of the virtual file system
	"SHELL=/bin/sh",
	"TERM=dumb",
	"USER=augur",
}

// Environment returns DefaultEnv with each NAME=VALUE of extra set (a later
// one wins), sorted by name.
func Environment(extra []string) ([]string, error) {
	vars := map[string]string{}
	for _, kv := range DefaultEnv {
		name, value, _ := strings.Cut(kv, "=")
		vars[name] = value
	}
	for _, kv := range extra {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("environment entry %q: want NAME=VALUE", kv)
		}
		vars[name] = value
	}
	out := make([]string, 0, len(vars))
	for name, value := range vars {
		out = append(out, name+"="+value)
	}
	sort.Strings(out)
	return out, nil
}
