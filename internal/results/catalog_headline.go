package results

import (
	"fmt"
	"math"
	"strings"

	"github.com/dbgauge/dbgauge/internal/stats"
)

// Headline is the one figure the catalog shows for a run: what a person
// scanning a list of runs wants to see first.
type Headline struct {
	// Label says what the figure is ("DSI", "geomean of 42 query
	// medians", ...).
	Label string
	// Value is the figure in the unit Text shows; nil when it is not one
	// number (A/B verdict counts) or there is none (an incomplete run).
	Value *float64
	// Text is the figure as shown, with its unit.
	Text string
}

// HeadlineOf picks the headline figure of a stored run:
//
//	wisconsin  geometric mean of the per-query median times (ms)
//	dsbench    DSI (with one scale, the median tps)
//	multiuser  peak thruput
//	sizesweep  the slope of the scans' time against size (ns per tuple)
//	abtest     the verdict counts
//	speedup    the best speedup
//	qac        the median computed time at the largest cardinality (ms)
//	storage    the commit latency p50 (small write + fdatasync, µs)
//
// A run without results.json has an empty headline.
func HeadlineOf(s *Stored) Headline {
	switch r := s.Results.(type) {
	case *WisconsinResults:
		return wisconsinHeadline(r)
	case *DSBenchResults:
		return dsbenchHeadline(r)
	case *MultiuserResults:
		return multiuserHeadline(r)
	case *SizeSweepResults:
		return sizesweepHeadline(r)
	case *ABTestResults:
		return abtestHeadline(r)
	case *SpeedupResults:
		return speedupHeadline(r)
	case *QACResults:
		return qacHeadline(r)
	case *StorageResults:
		return storageHeadline(r)
	}
	return Headline{}
}

func number(label string, v float64, format string) Headline {
	return Headline{Label: label, Value: &v, Text: fmt.Sprintf(format, v)}
}

func wisconsinHeadline(r *WisconsinResults) Headline {
	var medians []float64
	for _, q := range r.Queries {
		if q.Status == StatusOK && q.ElapsedMS.Median > 0 {
			medians = append(medians, q.ElapsedMS.Median)
		}
	}
	if len(medians) == 0 {
		return Headline{Label: "query medians", Text: "none measured"}
	}
	return number(fmt.Sprintf("geomean of %d query medians", len(medians)), stats.GeometricMean(medians), "%.4g ms")
}

func dsbenchHeadline(r *DSBenchResults) Headline {
	if r.DSI != nil {
		return number("DSI", *r.DSI, "%.4g")
	}
	if len(r.Scales) == 0 {
		return Headline{Label: "DSI", Text: "no scale measured"}
	}
	best := r.Scales[0]
	for _, s := range r.Scales[1:] {
		if s.MedianTPS > best.MedianTPS {
			best = s
		}
	}
	return number(fmt.Sprintf("median tps at scale %d (no DSI: one scale)", best.Scale), best.MedianTPS, "%.1f tps")
}

func multiuserHeadline(r *MultiuserResults) Headline {
	var best *MultiuserPoint
	for i, p := range r.Points {
		if p.Thruput != nil && !math.IsNaN(*p.Thruput) && (best == nil || *p.Thruput > *best.Thruput) {
			best = &r.Points[i]
		}
	}
	if best == nil {
		return Headline{Label: "peak thruput", Text: "not measured"}
	}
	return number(fmt.Sprintf("peak thruput (%d users)", best.Users), *best.Thruput, "%.2f")
}

func sizesweepHeadline(r *SizeSweepResults) Headline {
	if r.Analysis == nil || r.Analysis.NoIndexFit == nil {
		return Headline{Label: "scan slope", Text: "no scans fitted"}
	}
	// The fit is in ms per tuple; nanoseconds read better.
	return number("scan slope", r.Analysis.NoIndexFit.Slope*1e6, "%.3g ns/tuple")
}

func abtestHeadline(r *ABTestResults) Headline {
	counts := map[string]int{}
	for _, q := range r.Queries {
		for _, run := range q.Runs {
			if run.Comparison != nil {
				counts[run.Comparison.Verdict]++
			}
		}
	}
	var parts []string
	for _, v := range []string{stats.VerdictBFaster, stats.VerdictAFaster, stats.VerdictNoDiff, stats.VerdictTooFew} {
		if counts[v] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", v, counts[v]))
		}
	}
	if len(parts) == 0 {
		return Headline{Label: "verdicts", Text: "none"}
	}
	return Headline{Label: "verdicts", Text: strings.Join(parts, ", ")}
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

func qacHeadline(r *QACResults) Headline {
	var last *QaCResult
	for i, q := range r.QaCs {
		if last == nil || q.Cardinality > last.Cardinality {
			last = &r.QaCs[i]
		}
	}
	if last == nil {
		return Headline{Label: "computed time", Text: "not measured"}
	}
	est, all := last.Computed, last.AllComputed
	if r.Measure == "fine" {
		est, all = last.Fine, last.AllFine
	}
	label := fmt.Sprintf("median computed time at %d rows", last.Cardinality)
	if est.N == 0 {
		// The protocol kept no QE here: the figure over every QE that ran,
		// said so.
		est, label = all, label+" (every QE, none kept)"
	}
	if est.N == 0 {
		return Headline{Label: fmt.Sprintf("computed time at %d rows", last.Cardinality), Text: "no QE ran"}
	}
	return number(label, est.MedianMS, "%.4g ms")
}

func storageHeadline(r *StorageResults) Headline {
	if len(r.SyncWrites) == 0 {
		return Headline{Label: "commit latency p50", Text: "not measured"}
	}
	w := r.SyncWrites[0]
	return number(fmt.Sprintf("commit latency p50 (%d KiB write + fdatasync)", w.BlockBytes>>10), w.P50US, "%.4g µs")
}
