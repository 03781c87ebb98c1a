package results

import "fmt"

// The Wisconsin load (dbgauge load) as stored results know it: its
// results type, its catalog headline and its lines in the Go benchmark
// format.
func init() {
	Register(Kind{
		Name:     "load",
		Title:    "Wisconsin load",
		New:      func() Results { return &LoadResults{} },
		Headline: func(r Results) Headline { return loadHeadline(r.(*LoadResults)) },
		Bench:    func(w *BenchWriter, r Results, dir string) { benchLoad(w, r.(*LoadResults)) },
	})
}

// loadHeadline is the rate of all the loads together: rows over seconds.
func loadHeadline(r *LoadResults) Headline {
	var rows int64
	var secs float64
	for _, l := range r.Loads {
		rows, secs = rows+l.Rows, secs+l.Seconds
	}
	if rows == 0 || secs <= 0 {
		return Headline{Label: "load rate", Text: "nothing loaded"}
	}
	return number(fmt.Sprintf("load rate (%d relations, %d rows)", len(r.Loads), rows), float64(rows)/secs, "%.0f rows/s")
}

// Load: one line per relation loaded, its time per row and its rate.
func benchLoad(w *BenchWriter, r *LoadResults) {
	for _, l := range r.Loads {
		if l.Rows == 0 {
			continue
		}
		w.Line([]string{"Load", "relation=" + l.Relation, "N=" + itoa(l.Size)}, l.Rows,
			BenchValue{l.Seconds * 1e9 / float64(l.Rows), "ns/op"}, BenchValue{l.RowsPerS, "rows/s"})
	}
}
