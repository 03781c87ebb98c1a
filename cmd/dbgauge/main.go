// Command dbgauge measures database systems. See README.md.
package main

import (
	"os"

	"github.com/dbgauge/dbgauge/internal/cli"
	_ "github.com/dbgauge/dbgauge/internal/dbms/all"
)

func main() {
	os.Exit(cli.Run(os.Stdout, os.Stderr, os.Args[1:]))
}
