package report

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// The dsbench run's derived files, as the run writes them and `dbgauge
// report` rewrites them.
func init() {
	RegisterFiles("dsbench", func(r results.Results) (map[string][]byte, error) {
		res := r.(*results.DSBenchResults)
		files := DSBenchTables(res)
		files["per_transaction.txt"] = DSBenchPerTransactionText(res)
		maps.Copy(files, DSBenchTypeFiles(res))    // none for one type without statements
		maps.Copy(files, DSBenchFigureFiles(res))  // none for a workload without figures
		maps.Copy(files, DSBenchNodeFiles(res))    // none for a local run
		maps.Copy(files, DSBenchClusterFiles(res)) // none on one server
		charts, err := DSBenchCharts(res)
		return withCharts(files, charts, err)
	})
}

// The results table of a stress sweep: the 23 columns of seed 001 Table 1,
// one row per scale, as results.txt (aligned, '#' comments, whitespace
// between columns: gnuplot reads it as it is, "using 1:3") and results.csv
// (the seed's column descriptions as header, full precision, for office
// software).
//
// Column 11, "effective duration measured [s]", is what stats.SummarizeScale
// stores in ScaleResult.EffectiveS: the mean over cycles of the longest
// L_inj (first start to last counted commit) of the cycle, comparable with
// the demanded duration D. Column 10 by contrast is the total over the whole
// scale, and column 12 is f = column 10 / (I x D).

// DSBenchColumn is one column of the results table.
type DSBenchColumn struct {
	Short string // results.txt header: one word, gnuplot-friendly
	Long  string // results.csv header: seed 001 Table 1's description
	sig   int    // significant digits in results.txt (0: an integer)
	value func(s *results.ScaleResult) float64
}

// DSBenchColumns are the table's columns in the seed's order: 17 fixed ones
// and one per confidence level (percent) after column 12, so 23 with the
// six default levels.
func DSBenchColumns(levels []float64) []DSBenchColumn {
	cols := []DSBenchColumn{
		{"scale", "scale", 0, func(s *results.ScaleResult) float64 { return float64(s.Scale) }},
		{"size_GB", "database size [GB]", 4, func(s *results.ScaleResult) float64 { return float64(s.DBSizeBytes) / 1e9 }},
		{"median_tps", "transaction rate median [tps]", 5, func(s *results.ScaleResult) float64 { return s.MedianTPS }},
		{"mean_tps", "transaction rate average [tps]", 5, func(s *results.ScaleResult) float64 { return s.MeanTPS }},
		{"stddev_tps", "transaction rate standard deviation [tps]", 4, func(s *results.ScaleResult) float64 { return s.StddevTPS }},
		{"min_tps", "transaction rate minimum [tps]", 5, func(s *results.ScaleResult) float64 { return s.MinTPS }},
		{"max_tps", "transaction rate maximum [tps]", 5, func(s *results.ScaleResult) float64 { return s.MaxTPS }},
		{"transactions", "number of transactions done", 0, func(s *results.ScaleResult) float64 { return float64(s.Transactions) }},
		{"failed", "number of failed transaction trials", 0, func(s *results.ScaleResult) float64 { return float64(s.Failed) }},
		{"residence_s", "total transaction residence time [s]", 5, func(s *results.ScaleResult) float64 { return s.ResidenceS }},
		{"effective_s", "effective duration measured [s]", 5, func(s *results.ScaleResult) float64 { return s.EffectiveS }},
		{"f", "transaction rate multiplier f", 4, func(s *results.ScaleResult) float64 { return s.F }},
	}
	for _, l := range levels {
		key := stats.LevelKey(l)
		cols = append(cols, DSBenchColumn{
			"conf" + key + "_tps",
			fmt.Sprintf("transaction rate for %s%% confidence level [tps]", levelLabel(l)),
			5,
			func(s *results.ScaleResult) float64 {
				if v, ok := s.ConfidenceTPS[key]; ok {
					return v
				}
				return math.NaN()
			},
		})
	}
	return append(cols,
		DSBenchColumn{"populate_s", "populate database duration [s]", 4, func(s *results.ScaleResult) float64 { return s.PopulateS }},
		DSBenchColumn{"primary_key_s", "primary key duration [s]", 4, func(s *results.ScaleResult) float64 { return s.PrimaryKeyS }},
		DSBenchColumn{"foreign_key_s", "foreign key duration [s]", 4, func(s *results.ScaleResult) float64 { return s.ForeignKeyS }},
		DSBenchColumn{"cleanup_s", "cleanup duration [s]", 4, func(s *results.ScaleResult) float64 { return s.CleanupS }},
		DSBenchColumn{"drop_s", "drop database duration [s]", 4, func(s *results.ScaleResult) float64 { return s.DropS }},
	)
}

// levelLabel writes a level as the seed does: "50.0", "99.7", "99.73".
func levelLabel(l float64) string {
	s := strconv.FormatFloat(l, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// DSBenchTables renders results.txt and results.csv.
func DSBenchTables(r *results.DSBenchResults) map[string][]byte {
	return map[string][]byte{"results.txt": DSBenchText(r), "results.csv": DSBenchCSV(r)}
}

// DSBenchText renders results.txt: a commented preamble (the run's settings,
// the DSI with its settings, the column legend), a commented header line of
// one-word names, one aligned row per scale, then commented notes (ranges,
// inconsistent scales, warnings).
func DSBenchText(r *results.DSBenchResults) []byte {
	cols := DSBenchColumns(r.Confidence)
	var b bytes.Buffer
	mode := r.Mode
	if r.Workload != nil && r.Workload.Variant != "" {
		mode += " (" + r.Workload.Variant + ")"
	}
	fmt.Fprintf(&b, "# dbgauge dsbench: %s %s, mode %s, form %s\n", r.Engine, r.EngineVersion, mode, r.Form)
	fmt.Fprintf(&b, "# clients: %d nodes x %d threads x %d connections; %d cycles of D = %g s per scale; isolation %s; retry %t, prepare %t, reconnect %t",
		r.Nodes, r.Threads, r.Connections, r.Cycles, r.DurationS, r.Isolation, r.Retry, r.Prepare, r.Reconnect)
	if r.BackoffCapS > 0 {
		fmt.Fprintf(&b, " (backoff cap %g s, give up after %g s)", r.BackoffCapS, r.GiveUpS)
	}
	if r.RateTPS > 0 {
		fmt.Fprintf(&b, "; open loop at %g tps", r.RateTPS)
	}
	b.WriteString("\n")
	if r.DSI != nil {
		fmt.Fprintf(&b, "# DSI %.3f (%s)\n", *r.DSI, r.DSISettings)
	} else {
		b.WriteString("# DSI: none (needs two scales with positive rates)\n")
	}
	b.WriteString("# columns (seed 001 Table 1); column 11 is the mean over cycles of the longest effective duration L_inj of a cycle:\n")
	for i, c := range cols {
		fmt.Fprintf(&b, "# %2d %s\n", i+1, c.Long)
	}

	rows := [][]string{make([]string, len(cols))}
	for i, c := range cols {
		rows[0][i] = c.Short
	}
	for i := range r.Scales {
		row := make([]string, len(cols))
		for j, c := range cols {
			row[j] = sigDigits(c.value(&r.Scales[i]), c.sig)
		}
		rows = append(rows, row)
	}
	writeColumns(&b, rows)

	for _, g := range r.Ranges {
		fmt.Fprintf(&b, "# range %s: scale %d..%d: %s\n", g.Name, g.From, g.To, g.Reason)
	}
	for _, s := range r.Scales {
		switch s.Consistency() {
		case "false":
			fmt.Fprintf(&b, "# scale %d: INCONSISTENT: %s\n", s.Scale, strings.Join(s.Inconsistency, "; "))
		case "not checked":
			fmt.Fprintf(&b, "# scale %d: consistency NOT CHECKED: %s\n", s.Scale, s.Unchecked)
		}
	}
	for _, f := range DSBenchFaultNotes(r) {
		fmt.Fprintf(&b, "# %s\n", f)
	}
	if len(r.Cluster) > 0 {
		fmt.Fprintf(&b, "# %s\n", ClusterLine(r))
	}
	for _, s := range r.Scales {
		if s.Failover != nil {
			fmt.Fprintf(&b, "# scale %d failover: %s\n", s.Scale, FailoverLine(s.Failover))
		}
		if s.Acks != nil {
			fmt.Fprintf(&b, "# scale %d: %s\n", s.Scale, AckLine(s.Acks))
		}
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "# warning: %s\n", w)
	}
	if r.Error != "" {
		fmt.Fprintf(&b, "# error: %s\n", r.Error)
	}
	if !r.Complete {
		b.WriteString("# the run did not complete: scales above are those measured\n")
	}
	writeNodesText(&b, r)
	return b.Bytes()
}

// writeColumns writes rows right-aligned in columns, for gnuplot and
// people: the first row (the one-word names) commented, the others led by
// two spaces so that they align under it.
func writeColumns(b *bytes.Buffer, rows [][]string) {
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for j, c := range row {
			widths[j] = max(widths[j], utf8.RuneCountInString(c))
		}
	}
	for i, row := range rows {
		lead := "  " // data rows: two spaces, so that the header's "# " aligns
		if i == 0 {
			lead = "# "
		}
		b.WriteString(lead)
		for j, c := range row {
			if j > 0 {
				b.WriteString("  ")
			}
			b.WriteString(strings.Repeat(" ", widths[j]-utf8.RuneCountInString(c)) + c)
		}
		b.WriteString("\n")
	}
}

// DSBenchCSV renders results.csv: the seed's descriptions as header, one row
// per scale, numbers at full precision, an empty cell for a missing value.
func DSBenchCSV(r *results.DSBenchResults) []byte {
	return DSBenchCSVTable(r).CSVBytes()
}

// DSBenchCSVTable is results.csv as a table value.
func DSBenchCSVTable(r *results.DSBenchResults) *Table {
	cols := DSBenchColumns(r.Confidence)
	head := make([]string, len(cols))
	for i, c := range cols {
		head[i] = c.Long
	}
	t := &Table{Rows: [][]string{head}}
	for i := range r.Scales {
		row := make([]string, len(cols))
		for j, c := range cols {
			if v := c.value(&r.Scales[i]); !math.IsNaN(v) {
				row[j] = strconv.FormatFloat(v, 'f', -1, 64)
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// sigDigits writes v with n significant digits and no exponent (gnuplot and
// people both read it); n = 0 writes an integer. NaN stays "NaN", which
// gnuplot treats as a missing point.
func sigDigits(v float64, n int) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 0):
		return strconv.FormatFloat(v, 'f', -1, 64)
	case n == 0:
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	case v == 0:
		return "0"
	}
	d := n - 1 - int(math.Floor(math.Log10(math.Abs(v))))
	return strconv.FormatFloat(v, 'f', max(d, 0), 64)
}
