package results

import (
	"fmt"
	"strconv"
	"strings"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// The DSBENCH stress sweep as stored results know it: its results type, its catalog
// headline and its lines in the Go benchmark format.
func init() {
	Register(Kind{
		Name:     "dsbench",
		Title:    "DSBENCH stress sweep",
		New:      func() Results { return &DSBenchResults{} },
		Headline: func(r Results) Headline { return dsbenchHeadline(r.(*DSBenchResults)) },
		Bench:    func(w *BenchWriter, r Results, dir string) { benchDSBench(w, r.(*DSBenchResults), dir) },
		Units:    "scale",
	})
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

// DSBench: per scale, one line per cycle with its rate T_i (tx/s, the
// transactions committed as the iteration count) and the quantiles of
// that cycle's residence times, read from the scale's interval log (one
// interval per cycle).
func benchDSBench(w *BenchWriter, r *DSBenchResults, runDir string) {
	for _, s := range r.Scales {
		logs := w.LogOf(runDir, s.HistogramFile)
		byCycle := map[int]*hdr.Histogram{}
		for i, h := range logs {
			c := i + 1
			if n, err := strconv.Atoi(strings.TrimPrefix(h.Tag(), "cycle")); err == nil {
				c = n
			}
			byCycle[c] = h
		}
		committed := map[int]int64{}
		for _, d := range s.CycleDetail {
			committed[d.Cycle] += d.Committed
		}
		name := []string{"DSBench", "mode=" + r.Mode, "scale=" + itoa(s.Scale)}
		for i, tps := range s.Cycles {
			c := i + 1
			vals := []BenchValue{{tps, "tx/s"}}
			if h := byCycle[c]; h != nil && h.TotalCount() > 0 {
				for _, q := range residenceQuantiles {
					// The driver records microseconds.
					vals = append(vals, BenchValue{float64(h.ValueAtQuantile(q)) * 1e3, fmt.Sprintf("p%g-ns/tx", q)})
				}
			}
			w.Line(name, committed[c], vals...)
		}
	}
}

// residenceQuantiles are the quantiles of the residence times exported
// per cycle, as "p50-ns/tx" (tidied by benchstat to p50-sec/tx).
var residenceQuantiles = []float64{50, 95, 99}
