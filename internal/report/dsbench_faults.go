package report

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/results"
)

// ErrorCounts writes counts by class as "connection_refused 12,
// server_unavailable 7", classes in name order; "" when there are none.
func ErrorCounts(m map[string]int64) string {
	return namedValues(m, func(n int64) string { return strconv.FormatInt(n, 10) })
}

// namedValues writes m as "name value, ...", names in order.
func namedValues[V any](m map[string]V, format func(V) string) string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = k + " " + format(m[k])
	}
	return strings.Join(parts, ", ")
}

// DSBenchFaultNotes says, one line per scale that had any, what faults of
// the connection and the server cost it: its failed trials by class, the
// reconnect attempts, the commits in doubt, and the cycles they hit. A
// restart of the server under --retry/--reconnect shows here.
func DSBenchFaultNotes(r *results.DSBenchResults) []string {
	var out []string
	for _, s := range r.Scales {
		if len(s.Faults) == 0 {
			continue
		}
		line := fmt.Sprintf("scale %d: faults in %d of %d cycles", s.Scale, len(s.Faults), len(s.Cycles))
		if e := ErrorCounts(s.Errors); e != "" {
			line += "; failed trials by class: " + e
		}
		if s.Reconnects > 0 {
			line += fmt.Sprintf("; %d reconnect attempts", s.Reconnects)
		}
		if s.InDoubt > 0 {
			line += fmt.Sprintf("; %d commits in doubt", s.InDoubt)
		}
		cycles := make([]string, len(s.Faults))
		for i, f := range s.Faults {
			cycles[i] = strconv.Itoa(f.Cycle)
		}
		out = append(out, line+" (cycles "+strings.Join(cycles, ", ")+")")
	}
	return out
}

// DSBenchFaultsTable lists every cycle that had faults: its failed trials
// by class, reconnect attempts, commits in doubt and the faults its
// consistency check waited out. nil when no cycle had any.
func DSBenchFaultsTable(r *results.DSBenchResults) *Table {
	t := &Table{Rows: [][]string{{"scale", "cycle", "failed trials by class", "reconnect attempts", "commits in doubt", "check and cleanup faults"}}}
	for _, s := range r.Scales {
		for _, f := range s.Faults {
			t.Rows = append(t.Rows, []string{strconv.FormatInt(s.Scale, 10), strconv.Itoa(f.Cycle), ErrorCounts(f.Errors),
				strconv.FormatInt(f.Reconnects, 10), strconv.FormatInt(f.InDoubt, 10), ErrorCounts(f.CheckErrors)})
		}
	}
	if len(t.Rows) == 1 {
		return nil
	}
	return t
}
