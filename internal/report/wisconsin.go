package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dbgauge/dbgauge/internal/results"
)

// The wisconsin run's derived files, as the run writes them and `dbgauge
// report` rewrites them.
func init() {
	RegisterFiles("wisconsin", func(r results.Results) (map[string][]byte, error) {
		res := r.(*results.WisconsinResults)
		runs := []*results.WisconsinResults{res}
		files := WisconsinCSV(runs)
		files["tables.txt"] = WisconsinText(runs)
		if res.Protocol != nil {
			files["protocol.txt"] = []byte(res.Protocol.Paragraph)
		}
		return files, nil
	})
}

// paperTable is one of seed 000's Tables 1-11: a query class, the queries it
// shows (number and organisation), and their column labels.
type paperTable struct {
	title string
	cols  []paperCol
}

type paperCol struct {
	q     int
	org   string
	label string
}

var paperTables = []paperTable{
	{"Table 1. Selection queries without indices (result into relation)", []paperCol{{1, "heap", "Q1 1%"}, {2, "heap", "Q2 10%"}}},
	{"Table 2. Selection queries with indices (result into relation)", []paperCol{{3, "clustered", "Q3 clu 1%"}, {4, "clustered", "Q4 clu 10%"}, {5, "nonclustered", "Q5 ncl 1%"}, {6, "nonclustered", "Q6 ncl 10%"}}},
	{"Table 3. Selection queries, result to the client", []paperCol{{7, "clustered", "Q7 clu 1 tuple"}, {7, "hash", "Q7 hash 1 tuple"}, {8, "clustered", "Q8 clu 1%"}}},
	{"Table 4. Join queries without indices", []paperCol{{9, "heap", "Q9 joinAselB"}, {10, "heap", "Q10 joinABprime"}, {11, "heap", "Q11 joinCselAselB"}}},
	{"Table 5. Join queries with a clustered index on the join attribute", []paperCol{{12, "clustered", "Q12 joinAselB"}, {13, "clustered", "Q13 joinABprime"}, {14, "clustered", "Q14 joinCselAselB"}}},
	{"Table 6. Join queries with a non-clustered index on the join attribute", []paperCol{{15, "nonclustered", "Q15 joinAselB"}, {16, "nonclustered", "Q16 joinABprime"}, {17, "nonclustered", "Q17 joinCselAselB"}}},
	{"Table 7. Projection queries (duplicates removed)", []paperCol{{18, "heap", "Q18 1%"}, {19, "heap", "Q19 100%"}}},
	{"Table 8. Aggregate queries without indices", []paperCol{{20, "heap", "Q20 MIN scalar"}, {21, "heap", "Q21 MIN 100 part."}, {22, "heap", "Q22 SUM 100 part."}}},
	{"Table 9. Aggregate queries with indices", []paperCol{{23, "indexed", "Q23 MIN scalar"}, {24, "indexed", "Q24 MIN 100 part."}, {25, "indexed", "Q25 SUM 100 part."}}},
	{"Table 10. Update queries without indices", []paperCol{{26, "heap", "Q26 append"}, {27, "heap", "Q27 delete"}, {28, "heap", "Q28 modify key"}}},
	{"Table 11. Update queries with indices", []paperCol{{29, "indexed", "Q29 append"}, {30, "indexed", "Q30 delete"}, {31, "indexed", "Q31 modify key"}, {32, "indexed", "Q32 modify non-key"}}},
}

// Cell renders one query result: the median in ms, or why there is none.
func Cell(q *results.QueryResult) string {
	if q == nil {
		return "-"
	}
	switch q.Status {
	case results.StatusOK:
		return ms(q.ElapsedMS.Median)
	case results.StatusNotApplicable:
		return "n/a"
	case results.StatusMismatch:
		return "MISMATCH"
	case results.StatusInterrupted:
		return "INTERRUPTED"
	}
	if q.TimedOut {
		return "> " + (time.Duration(q.LimitMS) * time.Millisecond).String()
	}
	return "ERROR"
}

func ms(v float64) string {
	switch {
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case v >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

func find(r *results.WisconsinResults, q int, org, dest string, size int64) *results.QueryResult {
	for i := range r.Queries {
		x := &r.Queries[i]
		if x.Query == q && x.Organization == org && x.Size == size && (dest == "" || x.Destination == dest) {
			return x
		}
	}
	return nil
}

// destinations returns the destinations present for a size, in run order.
func destinations(r *results.WisconsinResults, size int64) []string {
	var out []string
	seen := map[string]bool{}
	for _, q := range r.Queries {
		if q.Size == size && !seen[q.Destination] && q.Destination != results.DestUpdate && q.Destination != results.DestClient {
			seen[q.Destination] = true
			out = append(out, q.Destination)
		}
	}
	if len(out) == 0 {
		out = []string{results.DestRelation}
	}
	return out
}

// PaperTables builds seed 000's Tables 1-11 for one size: one row per run
// (engine) and retrieval destination, one column per query, median ms.
func PaperTables(runs []*results.WisconsinResults, size int64) []*Table {
	var out []*Table
	for _, pt := range paperTables {
		t := &Table{Title: []string{pt.title, fmt.Sprintf("N = %d, median elapsed time in milliseconds", size)}}
		head := []string{"engine", "destination"}
		for _, c := range pt.cols {
			head = append(head, c.label)
		}
		t.Rows = append(t.Rows, head)
		any := false
		for _, r := range runs {
			for _, dest := range destinations(r, size) {
				label := dest
				if pt.cols[0].q == 7 {
					label = results.DestClient
				} else if pt.cols[0].q >= 26 {
					label = results.DestUpdate
				}
				row := []string{r.Engine, label}
				for _, c := range pt.cols {
					d := dest
					if c.q == 7 || c.q == 8 {
						d = results.DestClient
					} else if c.q >= 26 {
						d = results.DestUpdate
					}
					q := find(r, c.q, c.org, d, size)
					any = any || q != nil
					row = append(row, Cell(q))
				}
				t.Rows = append(t.Rows, row)
				if pt.cols[0].q == 7 || pt.cols[0].q >= 26 {
					break // one destination only for to-client and update tables
				}
			}
		}
		if any {
			out = append(out, t)
		}
	}
	return out
}

// ScaleTable is seed 003's Table 1 for one run: queries by relation size,
// with the fitted growth exponent and its verdict.
func ScaleTable(r *results.WisconsinResults) *Table {
	sizes := append([]int64(nil), r.Sizes...)
	sort.Slice(sizes, func(i, j int) bool { return sizes[i] < sizes[j] })
	t := &Table{Title: []string{fmt.Sprintf("Queries by relation size (%s %s), median elapsed time in milliseconds", r.Engine, r.EngineVersion)}}
	head := []string{"query", "class", "organization", "destination"}
	for _, n := range sizes {
		head = append(head, fmt.Sprintf("N=%d", n))
	}
	head = append(head, "growth exp.", "verdict")
	t.Rows = append(t.Rows, head)
	type key struct {
		q         int
		org, dest string
	}
	seen := map[key]bool{}
	for _, q := range r.Queries {
		k := key{q.Query, q.Organization, q.Destination}
		if seen[k] {
			continue
		}
		seen[k] = true
		row := []string{strconv.Itoa(q.Query), q.Class, q.Organization, q.Destination}
		for _, n := range sizes {
			row = append(row, Cell(find(r, q.Query, q.Organization, q.Destination, n)))
		}
		exp, verdict := "", ""
		for _, g := range r.Growth {
			if g.Query == q.Query && g.Organization == q.Organization && g.Destination == q.Destination {
				exp = strconv.FormatFloat(g.Growth.Exponent, 'f', 2, 64)
				verdict = g.Growth.Verdict
				if !g.Growth.OK {
					verdict += " (expected " + g.Growth.Expected + ")"
				}
			}
		}
		t.Rows = append(t.Rows, append(row, exp, verdict))
	}
	sortByQuery(t.Rows[1:])
	t.Notes = []string{"growth exp.: b in time = a*N^b fitted over the sizes; linear means 0.7 <= b <= 1.3, flat b <= 0.3."}
	return t
}

// DetailTable lists every query result with its cardinality check and the
// full summary of its repetitions.
func DetailTable(r *results.WisconsinResults) *Table {
	t := &Table{Title: []string{fmt.Sprintf("All query results (%s %s, %s cache, %d repetitions)", r.Engine, r.EngineVersion, r.Cache, r.Reps)}}
	head := []string{"size", "query", "class", "organization", "destination", "expected_rows", "rows", "status", "reps", "median_ms", "mean_ms", "min_ms", "max_ms", "stddev_ms", "reason"}
	ttp := r.Protocol != nil
	if ttp {
		// The protocol's computed time beside the elapsed time.
		head = append(head[:len(head)-1], "computed_ms", "computed_ci", "computed_rsd", "protocol", "reason")
	}
	t.Rows = append(t.Rows, head)
	for _, q := range r.Queries {
		s := q.ElapsedMS
		row := []string{
			strconv.FormatInt(q.Size, 10), strconv.Itoa(q.Query), q.Class, q.Organization, q.Destination,
			strconv.FormatInt(q.ExpectedRows, 10), strconv.FormatInt(q.Rows, 10), q.Status, strconv.Itoa(q.Reps),
			ms(s.Median), ms(s.Mean), ms(s.Min), ms(s.Max), ms(s.StdDev),
		}
		if ttp {
			verdict := "-"
			if q.ProtocolRetained != nil {
				verdict = "kept"
				if !*q.ProtocolRetained {
					verdict = "dropped: " + strings.Join(q.ProtocolDrops, "; ")
				}
			}
			if c := q.ComputedMS; c != nil {
				row = append(row, ms(c.MedianMS), interval(*c), rsd(*c), verdict)
			} else {
				row = append(row, "-", "-", "-", verdict)
			}
		}
		t.Rows = append(t.Rows, append(row, q.Reason))
	}
	if ttp {
		t.Notes = append(t.Notes, fmt.Sprintf("computed time: the timing protocol (%s), %s%% of executions and %s%% of query results dropped by its checks; protocol.txt says how it was measured",
			r.Protocol.Version, sigDigits(r.Protocol.QEsDroppedPct, 2), sigDigits(r.Protocol.QaCsDroppedPct, 2)))
	}
	return t
}

// LoadTable shows the loads and the relation-to-buffer-pool ratios.
func LoadTable(r *results.WisconsinResults) *Table {
	t := &Table{Title: []string{"Loads"}}
	t.Rows = append(t.Rows, []string{"size", "table", "rows", "seconds", "rows/s", "generation share"})
	for _, l := range r.Loads {
		share := 0.0
		if l.Seconds > 0 {
			share = 100 * l.GenerationSeconds / l.Seconds
		}
		t.Rows = append(t.Rows, []string{strconv.FormatInt(l.Size, 10), l.Table, strconv.FormatInt(l.Rows, 10),
			strconv.FormatFloat(l.Seconds, 'f', 2, 64), strconv.FormatFloat(l.RowsPerS, 'f', 0, 64), strconv.FormatFloat(share, 'f', 0, 64) + "%"})
	}
	for _, b := range r.BufferRatios {
		ratio := "unknown"
		if b.BufferPoolBytes > 0 {
			ratio = strconv.FormatFloat(b.Ratio, 'f', 2, 64)
		}
		t.Notes = append(t.Notes, fmt.Sprintf("N=%d: relation %d bytes, buffer pool %d bytes, ratio %s (the Handbook asks for >= 5)", b.Size, b.RelationBytes, b.BufferPoolBytes, ratio))
	}
	return t
}

// EngineTable puts engines side by side for one size: one row per query,
// organisation and destination, one column per run, median ms.
func EngineTable(runs []*results.WisconsinResults, size int64) *Table {
	t := &Table{Title: []string{fmt.Sprintf("Queries by engine, N = %d, median elapsed time in milliseconds", size)}}
	head := []string{"query", "class", "organization", "destination"}
	for _, r := range runs {
		head = append(head, r.Engine)
	}
	t.Rows = append(t.Rows, head)
	type key struct {
		q         int
		org, dest string
	}
	seen := map[key]bool{}
	for _, r := range runs {
		for _, q := range r.Queries {
			k := key{q.Query, q.Organization, q.Destination}
			if q.Size != size || seen[k] {
				continue
			}
			seen[k] = true
			row := []string{strconv.Itoa(q.Query), q.Class, q.Organization, q.Destination}
			for _, r2 := range runs {
				row = append(row, Cell(find(r2, q.Query, q.Organization, q.Destination, size)))
			}
			t.Rows = append(t.Rows, row)
		}
	}
	sortByQuery(t.Rows[1:])
	return t
}

// sortByQuery orders rows whose first cell is a query number by it, keeping
// the organisation order within a query.
func sortByQuery(body [][]string) {
	sort.SliceStable(body, func(i, j int) bool {
		qi, _ := strconv.Atoi(body[i][0])
		qj, _ := strconv.Atoi(body[j][0])
		return qi < qj
	})
}

// SideBySideText is the seed's tables of every size with one row per run
// (a quickstart's side_by_side.txt).
func SideBySideText(runs []*results.WisconsinResults) []byte {
	var b bytes.Buffer
	for _, n := range allSizes(runs) {
		for _, t := range PaperTables(runs, n) {
			t.Text(&b)
		}
	}
	return b.Bytes()
}

// WisconsinText renders every table of a set of runs (one engine each).
func WisconsinText(runs []*results.WisconsinResults) []byte {
	var b bytes.Buffer
	for _, n := range allSizes(runs) {
		if len(runs) > 1 {
			EngineTable(runs, n).Text(&b)
		}
		for _, t := range PaperTables(runs, n) {
			t.Text(&b)
		}
	}
	for _, r := range runs {
		if len(r.Sizes) > 1 {
			ScaleTable(r).Text(&b)
		}
	}
	for _, r := range runs {
		LoadTable(r).Text(&b)
		DetailTable(r).Text(&b)
		for _, t := range []*Table{EngineTimeTable(r), AdjustedTable(r)} {
			if t != nil {
				t.Text(&b)
			}
		}
		for _, wmsg := range r.Warnings {
			fmt.Fprintf(&b, "warning: %s\n", wmsg)
		}
	}
	return b.Bytes()
}

// WisconsinCSV renders the same tables as CSV files by name.
func WisconsinCSV(runs []*results.WisconsinResults) map[string][]byte {
	out := map[string][]byte{}
	var pb bytes.Buffer
	pw := csv.NewWriter(&pb)
	for _, n := range allSizes(runs) {
		for _, t := range PaperTables(runs, n) {
			// The label is the paper's table number, whichever tables ran.
			num := strings.TrimSuffix(strings.Fields(t.Title[0])[1], ".")
			t.CSV(pw, fmt.Sprintf("table%s_n%d", num, n))
		}
	}
	pw.Flush()
	out["wisconsin_tables.csv"] = pb.Bytes()
	for _, r := range runs {
		var db bytes.Buffer
		dw := csv.NewWriter(&db)
		DetailTable(r).CSV(dw)
		dw.Flush()
		out["results_"+r.Engine+".csv"] = db.Bytes()
		if t := EngineTimeTable(r); t != nil {
			out["enginetime_"+r.Engine+".csv"] = t.CSVBytes()
		}
		if t := AdjustedTable(r); t != nil {
			out["adjusted_"+r.Engine+".csv"] = t.CSVBytes()
		}
		if len(r.Sizes) > 1 {
			var sb bytes.Buffer
			sw := csv.NewWriter(&sb)
			ScaleTable(r).CSV(sw)
			sw.Flush()
			out["scaleup_"+r.Engine+".csv"] = sb.Bytes()
		}
	}
	return out
}

func allSizes(runs []*results.WisconsinResults) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, r := range runs {
		for _, n := range r.Sizes {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
