package htmlreport

import (
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// What dbgauge compare takes from a storage run.

// storageMetrics: the sequential rates, and per block size the random
// reads' and synchronous writes' rates and 99th percentiles; each test ran
// once, so one value each.
func storageMetrics(r *Run) []Metric {
	s := r.storage()
	var out []Metric
	add := func(key, label, unit string, better stats.Better, v float64) {
		x := Metric{Key: key, Label: label, Unit: unit, Better: better}
		if v > 0 {
			x.Samples = []float64{v}
		} else {
			x.Missing = "not measured"
		}
		out = append(out, x)
	}
	if s.SeqWrite != nil {
		add("seqwrite", "sequential write", "MB/s", stats.BiggerIsBetter, s.SeqWrite.MBps)
	}
	if s.SeqRead != nil {
		add("seqread", "sequential read", "MB/s", stats.BiggerIsBetter, s.SeqRead.MBps)
	}
	for _, group := range []struct {
		name  string
		tests []results.LatencyTest
	}{{"random reads", s.RandomReads}, {"synchronous writes", s.SyncWrites}} {
		for _, t := range group.tests {
			b := bytesLabel(t.BlockBytes)
			add(cmpKey("%s|%d|rate", group.name, t.BlockBytes), group.name+" of "+b, "ops/s", stats.BiggerIsBetter, t.PerSecond)
			add(cmpKey("%s|%d|p99", group.name, t.BlockBytes), group.name+" of "+b+", p99", "µs", stats.SmallerIsBetter, t.P99US)
		}
	}
	return out
}
