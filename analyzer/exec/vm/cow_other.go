//go:build !linux

package vm

import "errors"

var errNoMappings = errors.New("copy on write by the page needs Linux")

func frozenFile(b []byte, size int) (int, error) { return -1, errNoMappings }

func mapPrivate(fd, size int) ([]byte, error) { return nil, errNoMappings }

func unmap(mem []byte) {}

func closeFile(fd int) {}
