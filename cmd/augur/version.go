package main

import (
	"fmt"
	"runtime"

	"tinygo.org/x/go-llvm"

	"augur/analyzer/frontend/build"
	"augur/analyzer/version"
)

func versionCmd() int {
	fmt.Printf("augur %s\n", version.Version)
	fmt.Printf("go:    %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Printf("llvm:  %s (go-llvm, libLLVM)\n", llvm.Version)
	c, err := build.FindClang()
	if err != nil {
		fmt.Printf("clang: not found: %v\n", err)
		return 1
	}
	fmt.Printf("clang: %s (%s)\n", c.Path, c.Version)
	return 0
}
