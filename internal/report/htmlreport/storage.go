package htmlreport

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

func init() {
	RegisterPage(PageKind{Name: "storage", Doc: (*Run).storageDoc, Metrics: storageMetrics})
}

// storage is the run's results; nil when the run is not a storage run.
func (r *Run) storage() *results.StorageResults {
	res, _ := r.Results.(*results.StorageResults)
	return res
}

// storageDoc is the page of a storage run: sequential MB/s, random read
// IOPS and commit latency first; then the latencies of the small
// operations as bars with their reading, and the table.
func (r *Run) storageDoc(d *Doc) error {
	s := r.storage()
	d.Title = fmt.Sprintf("Storage: %s (%s)", s.Dir, s.FileSystem)
	d.Summary = storageHeadlines(s)
	r.warnIncomplete(d, s.Complete, s.Error, "the tests measured")
	for _, n := range s.Notes {
		r.warn(d, n)
	}
	if sec, ok := storageLatencyBars(s); ok {
		d.Sections = append(d.Sections, sec)
	}
	d.Sections = append(d.Sections, Section{ID: "results", Title: "Every test", Table: report.StorageTable(s)})
	return nil
}

// storageHeadlines: sequential write and read in MB/s, random reads in
// IOPS, and the commit latency (a small write and its fdatasync) at p50
// and p99, per block size.
func storageHeadlines(s *results.StorageResults) []Headline {
	var out []Headline
	if w := s.SeqWrite; w != nil {
		out = append(out, Headline{Label: "sequential write", Value: num(w.MBps) + " MB/s",
			Note: fmt.Sprintf("%s in %s blocks, then fdatasync", bytesLabel(w.Bytes), bytesLabel(w.BlockBytes))})
	}
	if rd := s.SeqRead; rd != nil {
		h := Headline{Label: "sequential read", Value: num(rd.MBps) + " MB/s", Note: "page cache dropped first"}
		if c := rd.CachedBefore; c != nil {
			h.Note += fmt.Sprintf(", %s%% still cached", pct(100**c))
		}
		out = append(out, h)
	}
	for _, x := range s.RandomReads {
		how := "O_DIRECT"
		if !x.Direct {
			how = "buffered"
		}
		out = append(out, Headline{Label: "random " + bytesLabel(x.BlockBytes) + " reads", Value: num(x.PerSecond) + " IOPS",
			Note: fmt.Sprintf("p50 %s µs, %s, queue depth 1", num(x.P50US), how)})
	}
	for _, x := range s.SyncWrites {
		out = append(out, Headline{Label: "commit: " + bytesLabel(x.BlockBytes) + " write + fdatasync", Value: num(x.P50US) + " / " + num(x.P99US) + " µs",
			Note: fmt.Sprintf("p50 / p99; %s writes/s", num(x.PerSecond))})
	}
	return out
}

// storageLatencyBars draws the median and 99th percentile latency of every
// small operation: what a read and what a commit cost.
func storageLatencyBars(s *results.StorageResults) (Section, bool) {
	var rows []Bar
	var values []float64
	add := func(name string, x results.LatencyTest) {
		for _, p := range []struct {
			label string
			v     float64
		}{{"p50", x.P50US}, {"p99", x.P99US}} {
			rows = append(rows, Bar{Label: fmt.Sprintf("%s %s, %s", name, bytesLabel(x.BlockBytes), p.label), Value: p.v, Text: num(p.v) + " µs"})
			values = append(values, p.v)
		}
	}
	for _, x := range s.RandomReads {
		add("random read", x)
	}
	for _, x := range s.SyncWrites {
		add("write + fdatasync", x)
	}
	if len(rows) == 0 {
		return Section{}, false
	}
	b := Bars{Title: "Latency of one small operation at queue depth 1", Axis: "latency [µs]", Rows: rows, Log: LogScaleFits(values)}
	if b.Log {
		b.Axis += ", log scale"
	}
	return Section{ID: "latency", Title: "Latency of reads and commits", Reading: storageReading(s), SVG: b.SVG()}, true
}

// storageReading compares the smallest commit with the random read of the
// same block size (or the smallest read when there is none).
func storageReading(s *results.StorageResults) string {
	var commit, read *results.LatencyTest
	if len(s.SyncWrites) > 0 {
		commit = &s.SyncWrites[0]
	}
	for i := range s.RandomReads {
		if read == nil || commit != nil && s.RandomReads[i].BlockBytes == commit.BlockBytes {
			read = &s.RandomReads[i]
		}
	}
	switch {
	case commit != nil && read != nil && read.P50US > 0:
		return fmt.Sprintf("A commit (%s write + fdatasync) takes %s µs at the median and %s µs at the 99th percentile, %s times a random %s read (%s µs at the median).",
			bytesLabel(commit.BlockBytes), num(commit.P50US), num(commit.P99US), num(commit.P50US/read.P50US), bytesLabel(read.BlockBytes), num(read.P50US))
	case commit != nil:
		return fmt.Sprintf("A commit (%s write + fdatasync) takes %s µs at the median and %s µs at the 99th percentile.",
			bytesLabel(commit.BlockBytes), num(commit.P50US), num(commit.P99US))
	case read != nil:
		return fmt.Sprintf("A random %s read takes %s µs at the median and %s µs at the 99th percentile.",
			bytesLabel(read.BlockBytes), num(read.P50US), num(read.P99US))
	}
	return ""
}
