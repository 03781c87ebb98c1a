package pgbench

import (
	"fmt"
	"io"
	"strings"

	"github.com/dbgauge/dbgauge/internal/workload/script/parse"
)

// WriteBuiltinList writes what "pgbench -b list" writes (to standard error):
// the built-in scripts, each name right-aligned, and a blank line.
func WriteBuiltinList(w io.Writer) error {
	var b strings.Builder
	b.WriteString("Available builtin scripts:\n")
	for _, name := range parse.BuiltinNames() {
		_, desc, err := parse.BuiltinSource(name)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "  %13s: %s\n", name, desc)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteBuiltinScript writes what "pgbench --show-script NAME" writes (to
// standard error): the built-in script's text, headed by its name and
// description, and a blank line.
func WriteBuiltinScript(w io.Writer, name string) error {
	src, _, err := parse.BuiltinSource(name)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, src+"\n")
	return err
}
