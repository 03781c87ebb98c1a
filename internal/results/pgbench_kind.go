package results

// A run of dbgauge pgbench as stored results know it.
func init() {
	Register(Kind{
		Name:     "pgbench",
		Title:    "pgbench-compatible run",
		New:      func() Results { return &PgbenchResults{} },
		Headline: func(r Results) Headline { return pgbenchHeadline(r.(*PgbenchResults)) },
		Bench:    func(w *BenchWriter, r Results, dir string) { benchPgbench(w, r.(*PgbenchResults)) },
	})
}

// pgbenchHeadline is the run's tps, as pgbench's last line says it.
func pgbenchHeadline(r *PgbenchResults) Headline {
	if r.Processed == 0 {
		return Headline{Label: "tps", Text: "no transaction processed"}
	}
	return number("tps", r.TPS, "%.1f tps")
}

// Pgbench: one line for the run and one per script, each with its time
// per transaction and rate.
func benchPgbench(w *BenchWriter, r *PgbenchResults) {
	if r.Processed == 0 {
		return
	}
	name := []string{"Pgbench", "clients=" + itoa(int64(r.Clients))}
	w.Line(name, r.Processed, BenchValue{r.P50MS * 1e6, "p50-ns/op"}, BenchValue{r.TPS, "tx/s"})
	for _, t := range r.Types {
		if t.Count > 0 {
			w.Line(append(name[:2:2], "script="+t.Name), t.Count, BenchValue{t.P50MS * 1e6, "p50-ns/op"})
		}
	}
}
