// Command dbgauge-docs writes dbgauge's man pages and Markdown command
// reference from its command tree: `make docs`, or
//
//	go run ./cmd/dbgauge-docs [-man docs/man] [-md docs/commands]
//
// internal/cli's TestDocsUpToDate fails when the committed pages differ from what
// the current commands would generate.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/dbgauge/dbgauge/internal/cli"
	_ "github.com/dbgauge/dbgauge/internal/workload/all" // the help lists the workloads
)

func main() {
	man := flag.String("man", "docs/man", "directory for the man pages (dbgauge*.1)")
	md := flag.String("md", "docs/commands", "directory for the Markdown reference (dbgauge*.md)")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: dbgauge-docs [-man DIR] [-md DIR]")
		os.Exit(2)
	}
	if err := cli.GenerateDocs(*man, *md); err != nil {
		fmt.Fprintf(os.Stderr, "dbgauge-docs: %v\n", err)
		os.Exit(1)
	}
}
