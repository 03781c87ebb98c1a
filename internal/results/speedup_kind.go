package results

import "fmt"

// The speedup as stored results know it: its results type, its catalog
// headline and its lines in the Go benchmark format.
func init() {
	Register(Kind{
		Name:     "speedup",
		Title:    "speedup",
		New:      func() Results { return &SpeedupResults{} },
		Headline: func(r Results) Headline { return speedupHeadline(r.(*SpeedupResults)) },
		Bench:    func(w *BenchWriter, r Results, dir string) { benchSpeedup(w, r.(*SpeedupResults)) },
		Units:    "point",
	})
}

func speedupHeadline(r *SpeedupResults) Headline {
	if r.Speedup == nil || !r.Speedup.Applicable {
		return Headline{Label: "best speedup", Text: "not applicable"}
	}
	var best float64
	label := ""
	for _, c := range r.Speedup.Curves {
		for _, p := range c.Points {
			if p.Speedup > best {
				best, label = p.Speedup, fmt.Sprintf("best speedup (Q%d at p=%d)", c.Query, p.X)
			}
		}
	}
	if label == "" {
		return Headline{Label: "best speedup", Text: "not measured"}
	}
	return number(label, best, "%.2fx")
}

// Speedup: every repetition of every query at every value of each part's
// variable: /p= (parallelism), /memory= (join memory, bytes), /page=
// (page size, bytes).
func benchSpeedup(w *BenchWriter, r *SpeedupResults) {
	for _, part := range []struct {
		key string
		p   *SpeedupPart
	}{{"p", r.Speedup}, {"memory", r.Memory}, {"page", r.PageSize}} {
		if part.p == nil || !part.p.Applicable {
			continue
		}
		for _, c := range part.p.Curves {
			for _, pt := range c.Points {
				if pt.Error != "" {
					continue
				}
				name := []string{"Speedup", fmt.Sprintf("Q%d", c.Query), "org=" + c.Org, part.key + "=" + itoa(pt.X)}
				for _, ms := range pt.TimesMS {
					w.Line(name, 1, NS(ms, "ns/op"))
				}
			}
		}
	}
}
