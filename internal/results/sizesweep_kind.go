package results

// The size sweep as stored results know it: its results type, its catalog
// headline and its lines in the Go benchmark format.
func init() {
	Register(Kind{
		Name:     "sizesweep",
		Title:    "size sweep",
		New:      func() Results { return &SizeSweepResults{} },
		Headline: func(r Results) Headline { return sizesweepHeadline(r.(*SizeSweepResults)) },
		Bench:    func(w *BenchWriter, r Results, dir string) { benchSizeSweep(w, r.(*SizeSweepResults)) },
		Units:    "size",
	})
}

func sizesweepHeadline(r *SizeSweepResults) Headline {
	if r.Analysis == nil || r.Analysis.NoIndexFit == nil {
		return Headline{Label: "scan slope", Text: "no scans fitted"}
	}
	// The fit is in ms per tuple; nanoseconds read better.
	return number("scan slope", r.Analysis.NoIndexFit.Slope*1e6, "%.3g ns/tuple")
}

// SizeSweep: every timed repetition per access method and size.
func benchSizeSweep(w *BenchWriter, r *SizeSweepResults) {
	for _, p := range r.Points {
		name := []string{"SizeSweep", "retrieve=" + r.Retrieve, "access=" + p.Access, "N=" + itoa(p.Size)}
		for _, ms := range p.TimesMS {
			w.Line(name, 1, NS(ms, "ns/op"))
		}
	}
}
