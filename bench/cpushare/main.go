// Command cpushare reads a CPU profile's traces (`go tool pprof -traces
// BINARY PROFILE` on its standard input) and prints the share of the load's
// CPU time spent outside an embedded engine, as docs/client-cost.md
// measures it: the samples of the main goroutine (population, checks,
// reports: their root is runtime.main) are left out; of the rest, those
// whose leaf is runtime.cgocall (Go's profiler puts the time spent in C
// there, the engine's system calls included) or C code on threads Go does
// not know (runtime._ExternalCode, an unsymbolised "[libc.so.6]", a C
// symbol without a package) are the engine's; everything else (dbgauge's
// code, the drivers' Go side, the cgo transitions, the runtime's scheduler
// and collector) is outside.
//
// Output, one line: outside PERCENT load SECONDS engine SECONDS main SECONDS
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"time"
)

func main() {
	var load, engine, mainG time.Duration
	var trace []string
	var value time.Duration
	flush := func() {
		defer func() { trace, value = nil, 0 }()
		if len(trace) == 0 {
			return
		}
		switch {
		case trace[len(trace)-1] == "runtime.main":
			mainG += value
		case isEngine(trace):
			load += value
			engine += value
		default:
			load += value
		}
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	seen := false
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "-----------+") {
			flush()
			seen = true
			continue
		}
		if !seen {
			continue // the header
		}
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasSuffix(f[0], ":") {
			continue // labels
		}
		if len(trace) == 0 {
			d, err := time.ParseDuration(f[0])
			if err != nil || len(f) < 2 {
				fmt.Fprintf(os.Stderr, "cpushare: a trace starts with %q: give the output of go tool pprof -traces\n", line)
				os.Exit(2)
			}
			value = d
			f = f[1:]
		}
		trace = append(trace, f[0])
	}
	flush()
	if !seen || load == 0 {
		fmt.Fprintln(os.Stderr, "cpushare: no load samples: give the output of go tool pprof -traces of a dbgauge run")
		os.Exit(2)
	}
	fmt.Printf("outside %.1f load %.2f engine %.2f main %.2f\n", 100*float64(load-engine)/float64(load), load.Seconds(), engine.Seconds(), mainG.Seconds())
}

// isEngine says whether a trace (leaf first) is time in the engine.
func isEngine(trace []string) bool {
	leaf := trace[0]
	if leaf == "runtime.cgocall" || strings.HasPrefix(leaf, "[") || !strings.Contains(leaf, ".") {
		return true
	}
	for _, f := range trace {
		if f == "runtime._ExternalCode" {
			return true
		}
	}
	return false
}
