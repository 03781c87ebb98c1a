// Command dbgauge measures database systems. See README.md.
package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/dbgauge/dbgauge/internal/cli"
	_ "github.com/dbgauge/dbgauge/internal/dbms/all"
	_ "github.com/dbgauge/dbgauge/internal/workload/all"
)

func main() {
	// DBGAUGE_CPUPROFILE=FILE writes a CPU profile of the whole command,
	// for the bench/ work on dbgauge's own cost.
	if path := os.Getenv("DBGAUGE_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "dbgauge: DBGAUGE_CPUPROFILE: %v\n", err)
			os.Exit(2)
		}
		pprof.StartCPUProfile(f)
		code := cli.Run(os.Stdout, os.Stderr, os.Args[1:])
		pprof.StopCPUProfile()
		f.Close()
		os.Exit(code)
	}
	os.Exit(cli.Run(os.Stdout, os.Stderr, os.Args[1:]))
}
