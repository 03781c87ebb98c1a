package report

import (
	"strconv"

	"github.com/dbgauge/dbgauge/internal/results"
)

// The files of a dbgauge pgbench run: pgbench's report as it printed it
// (pgbench.txt), and the percentiles pgbench does not print, per script and
// per command (percentiles.txt and .csv).
func init() {
	RegisterFiles("pgbench", func(r results.Results) (map[string][]byte, error) {
		p := r.(*results.PgbenchResults)
		t := PgbenchPercentiles(p)
		return map[string][]byte{"pgbench.txt": []byte(p.Report), "percentiles.txt": t.TextBytes(), "percentiles.csv": t.CSVBytes()}, nil
	})
}

// PgbenchPercentiles is the table of a pgbench run's residence times: the
// run's, then each script's with a row per command.
func PgbenchPercentiles(r *results.PgbenchResults) *Table {
	t := &Table{Title: []string{"Residence times of the processed transactions, per script and command [ms]"}}
	t.Rows = append(t.Rows, []string{"script", "command", "count", "failed", "retries", "p50_ms", "p90_ms", "p95_ms", "p99_ms", "p99.9_ms", "max_ms"})
	n := strconv.FormatInt
	t.Rows = append(t.Rows, append([]string{"(all)", "-", n(r.Processed, 10), n(r.Failed, 10), n(r.Retries, 10)}, percentileCells(r.Percentiles)...))
	for _, ty := range r.Types {
		t.Rows = append(t.Rows, append([]string{ty.Name, "-", n(ty.Count, 10), n(ty.Failed, 10), n(ty.Retries, 10)}, percentileCells(ty.Percentiles)...))
		for _, st := range ty.Statements {
			t.Rows = append(t.Rows, append([]string{ty.Name, st.Name, n(st.Count, 10), "-", "-"}, percentileCells(st.Percentiles)...))
		}
	}
	t.Notes = []string{
		"a script's count is its processed transactions, its times theirs from their actual start (pgbench's latency under -R runs from the scheduled start: the lag is added there); a command's count is how often it ran in the transactions counted, failed tries included.",
	}
	return t
}
