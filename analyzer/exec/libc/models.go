package libc

import (
	"sync"

	"augur/analyzer/exec/vm"
)

// Models returns the table of models augur runs programs with: the
// machine's own (vm.NewModels) and the C library's, listed below. It is
// built once, on first use, and handed to every machine (vm.Config.Models);
// docs/models.md is generated from it.
func Models() *vm.Models { return models() }

var models = sync.OnceValue(func() *vm.Models {
	tab := table{vm.NewModels()}
	tab.SetLibrary(newState)
	tab.addHeap()
	tab.addMath()
	tab.addStrtod()
	tab.addTime()
	tab.addMutexes()
	tab.addSync()
	tab.addFutex()
	tab.addStdio()
	tab.addStreamPositions()
	tab.addErrorStrings()
	tab.addScanf()
	tab.addMemStreams()
	tab.addPosixFiles()
	tab.addFileModes()
	tab.addLinks()
	tab.addSymlinks()
	tab.addFileLocks()
	tab.addDirs()
	tab.addFifos()
	tab.addMmap()
	tab.addNet()
	tab.addSockets()
	tab.addPoll()
	tab.addEventFDs()
	tab.addTimerFDs()
	return tab.Models
})

// table is the table being built, with the helpers that register this
// package's kinds of models (register, registerIO).
type table struct{ *vm.Models }

// Modeled reports whether augur models the function name: a program that
// calls it needs no definition of it.
func Modeled(name string) bool { return Models().Lookup(name) != nil }
