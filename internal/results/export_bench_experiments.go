package results

import (
	"fmt"
	"strconv"
	"strings"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// The benchmark lines of each experiment (see BenchLines). Every line is
// one repetition; only measurements that succeeded are exported (a
// mismatched or failed query has no time worth comparing).

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// Wisconsin: every timed execution of every query at every size,
// organisation and destination.
func benchWisconsin(w *benchWriter, r *WisconsinResults) {
	for _, q := range r.Queries {
		if q.Status != StatusOK {
			continue
		}
		name := []string{"Wisconsin", fmt.Sprintf("Q%d", q.Query), "N=" + itoa(q.Size), "org=" + q.Organization, "dest=" + q.Destination}
		for _, ms := range q.SamplesMS {
			w.line(name, 1, ns(ms, "ns/op"))
		}
	}
}

// residenceQuantiles are the quantiles of the residence times exported
// per cycle, as "p50-ns/tx" (tidied by benchstat to p50-sec/tx).
var residenceQuantiles = []float64{50, 95, 99}

// DSBench: per scale, one line per cycle with its rate T_i (tx/s, the
// transactions committed as the iteration count) and the quantiles of
// that cycle's residence times, read from the scale's interval log (one
// interval per cycle).
func benchDSBench(w *benchWriter, r *DSBenchResults, runDir string) {
	for _, s := range r.Scales {
		logs := w.logOf(runDir, s.HistogramFile)
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
			vals := []benchValue{{tps, "tx/s"}}
			if h := byCycle[c]; h != nil && h.TotalCount() > 0 {
				for _, q := range residenceQuantiles {
					// The driver records microseconds.
					vals = append(vals, benchValue{float64(h.ValueAtQuantile(q)) * 1e3, fmt.Sprintf("p%g-ns/tx", q)})
				}
			}
			w.line(name, committed[c], vals...)
		}
	}
}

// Multiuser: every repetition's wall time at every user count (0 users is
// the harness alone), as measured, before any overhead is subtracted.
func benchMultiuser(w *benchWriter, r *MultiuserResults) {
	for _, run := range r.Runs {
		w.line([]string{"Multiuser", "users=" + strconv.Itoa(run.Users)}, 1, ns(run.WallMS, "ns/op"))
	}
}

// SizeSweep: every timed repetition per access method and size.
func benchSizeSweep(w *benchWriter, r *SizeSweepResults) {
	for _, p := range r.Points {
		name := []string{"SizeSweep", "retrieve=" + r.Retrieve, "access=" + p.Access, "N=" + itoa(p.Size)}
		for _, ms := range p.TimesMS {
			w.line(name, 1, ns(ms, "ns/op"))
		}
	}
}

// ABTest: both variants' times of every pair, told apart by /variant=A
// and /variant=B (`benchstat -col /variant bench.txt` compares them; its
// test is unpaired, the run's own bootstrap verdict is paired).
func benchABTest(w *benchWriter, r *ABTestResults) {
	for _, q := range r.Queries {
		for _, run := range q.Runs {
			if run.Status != StatusOK {
				continue
			}
			for _, v := range []struct {
				name string
				ms   []float64
			}{{"A", run.AMS}, {"B", run.BMS}} {
				name := []string{"ABTest", q.Label, "cache=" + run.Cache, "variant=" + v.name}
				for _, ms := range v.ms {
					w.line(name, 1, ns(ms, "ns/op"))
				}
			}
		}
	}
}

// Speedup: every repetition of every query at every value of each part's
// variable: /p= (parallelism), /memory= (join memory, bytes), /page=
// (page size, bytes).
func benchSpeedup(w *benchWriter, r *SpeedupResults) {
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
					w.line(name, 1, ns(ms, "ns/op"))
				}
			}
		}
	}
}

// QAC: every QE the protocol kept at every cardinality: measured (wall
// clock) time as ns/op, and the computed times the protocol derives
// (computed-ns/op from ticks, fine-ns/op from taskstats/schedstat where
// the run had them).
func benchQAC(w *benchWriter, r *QACResults) {
	query := "sql"
	if n, ok := strings.CutPrefix(r.Query, "wisconsin "); ok {
		query = "Q" + n
	}
	for _, q := range r.QaCs {
		name := []string{"QAC", query, "card=" + itoa(q.Cardinality)}
		if !q.Retained {
			continue // the protocol dropped this Q@C: its times are not to be trusted
		}
		for _, qe := range q.QEs {
			if qe.Dropped || qe.Error != "" {
				continue
			}
			vals := []benchValue{ns(qe.MeasuredMS, "ns/op"), ns(qe.ComputedMS, "computed-ns/op")}
			if q.Fine.N > 0 {
				vals = append(vals, ns(qe.FineMS, "fine-ns/op"))
			}
			w.line(name, 1, vals...)
		}
	}
}

// Storage: the sequential tests as one MB/s line each, and the random
// reads and synchronous writes one line per interval of their latency log
// (mean, p50 and p99 latency, and the rate in that interval), or, for a
// run without logs, one line from the summary.
func benchStorage(w *benchWriter, r *StorageResults, runDir string) {
	for _, t := range []struct {
		test string
		tp   *Throughput
	}{{"seq_write", r.SeqWrite}, {"seq_read", r.SeqRead}} {
		if t.tp != nil && t.tp.BlockBytes > 0 {
			w.line([]string{"Storage", "test=" + t.test, fmt.Sprintf("block=%dKiB", t.tp.BlockBytes>>10)}, t.tp.Bytes/t.tp.BlockBytes, benchValue{t.tp.MBps, "MB/s"})
		}
	}
	for _, set := range []struct {
		test  string
		tests []LatencyTest
	}{{StorageRandomRead, r.RandomReads}, {StorageSyncWrite, r.SyncWrites}} {
		for _, t := range set.tests {
			name := []string{"Storage", "test=" + set.test, fmt.Sprintf("block=%dKiB", t.BlockBytes>>10)}
			logs := w.logOf(runDir, StorageHistogramFile(set.test, t.BlockBytes))
			if len(logs) == 0 {
				w.line(name, t.Ops, benchValue{t.MeanUS * 1e3, "ns/op"}, benchValue{t.P50US * 1e3, "p50-ns/op"}, benchValue{t.P99US * 1e3, "p99-ns/op"})
				continue
			}
			for _, h := range logs {
				vals := []benchValue{{h.Mean(), "ns/op"}, {float64(h.ValueAtQuantile(50)), "p50-ns/op"}, {float64(h.ValueAtQuantile(99)), "p99-ns/op"}}
				// A rate over less than 0.1 s suffers from the log's millisecond
				// timestamps.
				if ms := h.EndTimeMs() - h.StartTimeMs(); ms >= 100 {
					vals = append(vals, benchValue{float64(h.TotalCount()) / (float64(ms) / 1e3), "ops/s"})
				}
				w.line(name, h.TotalCount(), vals...)
			}
		}
	}
}
