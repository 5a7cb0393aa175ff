package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"augur/analyzer/frontend/build"
	"augur/lsp/workspace"
)

// The command line builds what the editor builds: `--target NAME` takes
// a target of the augur.toml in the current directory or the nearest one
// above it, and given files without --target take the one target there
// that lists them all. The target gives the sources, the compile flags
// (its settings' include, define and flags, and compile_commands.json's
// per-file flags) and the program's inputs (arguments, argv0, standard
// input, files, environment); the command's own flags add to them, and
// its program arguments, --stdin and --argv0 replace the target's. The
// analysis settings stay the command's flags.

// target is a resolved augur.toml target.
type target struct {
	t    *workspace.Target
	plan *workspace.Plan
}

// findConfig returns the directory of the nearest augur.toml at or above
// the current directory, or "".
func findConfig() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, workspace.ConfigName)); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// resolveTarget finds the target for --target name, or (name empty) the
// one target listing every file given, and returns its sources as the
// files to build. It returns nil and the files unchanged when there is
// no such target and none was asked for.
func resolveTarget(name string, files []string) (*target, []string, error) {
	root := findConfig()
	if root == "" {
		if name != "" {
			return nil, nil, fmt.Errorf("--target %s: no %s in this directory or above it", name, workspace.ConfigName)
		}
		return nil, files, nil
	}
	ws := workspace.New(root)
	if err := ws.ConfigError(); err != nil {
		if name == "" {
			return nil, files, nil // a broken augur.toml matters only to who asked for a target
		}
		return nil, nil, err
	}
	var picked *workspace.Target
	var names []string
	for _, t := range ws.Targets() {
		names = append(names, t.Name)
		switch {
		case name != "" && t.Name == name:
			picked = t
		case name == "" && len(files) > 0 && listsAll(t, files):
			if picked != nil {
				return nil, files, nil // two targets list them: not the command line's choice to make
			}
			picked = t
		}
	}
	if picked == nil {
		if name != "" {
			return nil, nil, fmt.Errorf("--target %s: %s has no such target (it has: %v)", name, filepath.Join(root, workspace.ConfigName), names)
		}
		return nil, files, nil
	}
	if name != "" && len(files) > 0 && !listsAll(picked, files) {
		return nil, nil, fmt.Errorf("--target %s: it does not list all of %v", name, files)
	}
	plan, err := ws.Plan(picked, build.Options{}.Dir())
	if err != nil {
		return nil, nil, err
	}
	if name == "" {
		fmt.Fprintf(os.Stderr, "augur: building target %s of %s (its flags and inputs)\n", picked.Name, filepath.Join(root, workspace.ConfigName))
	}
	return &target{t: picked, plan: plan}, picked.Sources, nil
}

// listsAll reports whether t's sources include every file.
func listsAll(t *workspace.Target, files []string) bool {
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil || !slices.Contains(t.Sources, abs) {
			return false
		}
	}
	return true
}
