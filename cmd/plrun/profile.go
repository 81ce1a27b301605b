package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
)

// startProfiles starts the profiles the environment asks for:
// PLRUN_CPUPROFILE=FILE writes a CPU profile of the whole command to FILE,
// PLRUN_MEMPROFILE=FILE a heap profile (allocations since start, in use at
// the end) when it ends. The returned stop writes them; it is safe to call
// when nothing was asked for.
func startProfiles(stderr io.Writer) (stop func()) {
	cpu, mem := os.Getenv("PLRUN_CPUPROFILE"), os.Getenv("PLRUN_MEMPROFILE")
	var cpuFile *os.File
	if cpu != "" {
		f, err := os.Create(cpu)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(stderr, "plrun: PLRUN_CPUPROFILE: %v\n", err)
		} else {
			cpuFile = f
		}
	}
	return func() {
		if cpuFile != nil {
			pprof.StopCPUProfile()
			cpuFile.Close()
		}
		if mem != "" {
			runtime.GC()
			f, err := os.Create(mem)
			if err == nil {
				err = pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
			if err != nil {
				fmt.Fprintf(stderr, "plrun: PLRUN_MEMPROFILE: %v\n", err)
			}
		}
	}
}
