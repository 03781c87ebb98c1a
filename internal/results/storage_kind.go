package results

import "fmt"

// The storage as stored results know it: its results type, its catalog
// headline and its lines in the Go benchmark format.
func init() {
	Register(Kind{
		Name:     "storage",
		Title:    "storage",
		New:      func() Results { return &StorageResults{} },
		Headline: func(r Results) Headline { return storageHeadline(r.(*StorageResults)) },
		Bench:    func(w *BenchWriter, r Results, dir string) { benchStorage(w, r.(*StorageResults), dir) },
	})
}

func storageHeadline(r *StorageResults) Headline {
	if len(r.SyncWrites) == 0 {
		return Headline{Label: "commit latency p50", Text: "not measured"}
	}
	w := r.SyncWrites[0]
	return number(fmt.Sprintf("commit latency p50 (%d KiB write + fdatasync)", w.BlockBytes>>10), w.P50US, "%.4g µs")
}

// Storage: the sequential tests as one MB/s line each, and the random
// reads and synchronous writes one line per interval of their latency log
// (mean, p50 and p99 latency, and the rate in that interval), or, for a
// run without logs, one line from the summary.
func benchStorage(w *BenchWriter, r *StorageResults, runDir string) {
	for _, t := range []struct {
		test string
		tp   *Throughput
	}{{"seq_write", r.SeqWrite}, {"seq_read", r.SeqRead}} {
		if t.tp != nil && t.tp.BlockBytes > 0 {
			w.Line([]string{"Storage", "test=" + t.test, fmt.Sprintf("block=%dKiB", t.tp.BlockBytes>>10)}, t.tp.Bytes/t.tp.BlockBytes, BenchValue{t.tp.MBps, "MB/s"})
		}
	}
	for _, set := range []struct {
		test  string
		tests []LatencyTest
	}{{StorageRandomRead, r.RandomReads}, {StorageSyncWrite, r.SyncWrites}} {
		for _, t := range set.tests {
			name := []string{"Storage", "test=" + set.test, fmt.Sprintf("block=%dKiB", t.BlockBytes>>10)}
			logs := w.LogOf(runDir, StorageHistogramFile(set.test, t.BlockBytes))
			if len(logs) == 0 {
				w.Line(name, t.Ops, BenchValue{t.MeanUS * 1e3, "ns/op"}, BenchValue{t.P50US * 1e3, "p50-ns/op"}, BenchValue{t.P99US * 1e3, "p99-ns/op"})
				continue
			}
			for _, h := range logs {
				vals := []BenchValue{{h.Mean(), "ns/op"}, {float64(h.ValueAtQuantile(50)), "p50-ns/op"}, {float64(h.ValueAtQuantile(99)), "p99-ns/op"}}
				// A rate over less than 0.1 s suffers from the log's millisecond
				// timestamps.
				if ms := h.EndTimeMs() - h.StartTimeMs(); ms >= 100 {
					vals = append(vals, BenchValue{float64(h.TotalCount()) / (float64(ms) / 1e3), "ops/s"})
				}
				w.Line(name, h.TotalCount(), vals...)
			}
		}
	}
}

// BenchConfig is the file system the tests ran on (storage runs no
// engine).
func (r *StorageResults) BenchConfig() [][2]string {
	return [][2]string{{"filesystem", r.FileSystem}}
}

// Head is the header with storage's notes as its warnings (results.json
// keeps them under "notes").
func (r *StorageResults) Head() Header {
	h := r.Header
	h.Warnings = r.Notes
	return h
}
