package main

import (
	"os"
	"runtime"
	"runtime/pprof"
	"time"
)

func init() {
	if p := os.Getenv("ZZ_MEMPROF"); p != "" {
		go func() {
			time.Sleep(3 * time.Second)
			f, _ := os.Create(p)
			runtime.GC()
			pprof.WriteHeapProfile(f)
			f.Close()
		}()
	}
	if p := os.Getenv("ZZ_CPUPROF"); p != "" {
		f, _ := os.Create(p)
		pprof.StartCPUProfile(f)
		go func() { time.Sleep(6 * time.Second); pprof.StopCPUProfile(); f.Close() }()
	}
}
