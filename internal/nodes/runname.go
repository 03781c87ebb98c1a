package nodes

import (
	"fmt"
	"strings"
	"unicode"
)

// maxRunName bounds the run name a master sends: its own is a UTC time
// (20060102T150405Z), and a file name component has 255 bytes at most.
const maxRunName = 64

// checkRunName refuses a run name that is not one plain directory name:
// an agent makes DIR/RUN/ for its interval logs, and the name comes from
// the network, so ".." or a "/" would put them anywhere the agent may
// write. Printable characters only, and no "\": the name also shows in
// the agent's log lines.
func checkRunName(run string) error {
	switch {
	case run == "" || run == "." || run == "..":
		return fmt.Errorf("run name %q is not a directory name", run)
	case len(run) > maxRunName:
		return fmt.Errorf("run name of %d bytes, more than %d", len(run), maxRunName)
	case strings.ContainsAny(run, `/\`) || strings.Contains(run, ".."):
		return fmt.Errorf("run name %q holds a path (\"/\", \"\\\" or \"..\")", run)
	}
	for _, r := range run {
		if !unicode.IsPrint(r) || r == unicode.ReplacementChar {
			return fmt.Errorf("run name %q holds a character that is not printable", run)
		}
	}
	return nil
}
