package report

import (
	"bytes"
	"strconv"

	"github.com/dbgauge/dbgauge/internal/results"
)

// DSBenchPerTransaction is the load per committed transaction of every
// scale (seed 001 Tables 8, 12, 16, 17), from the samples taken while the
// cycles ran, with the client's own CPU beside it.
func DSBenchPerTransaction(r *results.DSBenchResults) *Table {
	t := &Table{Title: []string{"Load per committed transaction, measured while the cycles ran"}}
	t.Rows = append(t.Rows, []string{"scale", "median_tps", "written_kB", "network_bytes", "iowait_ms", "client_cpu_us"})
	f := func(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }
	for _, s := range r.Scales {
		cpu := 0.0
		if s.Transactions > 0 {
			cpu = 1e6 * s.ClientCPUS / float64(s.Transactions)
		}
		t.Rows = append(t.Rows, []string{strconv.FormatInt(s.Scale, 10), f(s.MedianTPS, 1), f(s.WriteKBPerTx, 2), f(s.NetBytesPerTx, 0), f(s.IOWaitMSPerTx, 3), f(cpu, 1)})
	}
	t.Notes = []string{"network bytes count every interface, loopback included, both directions (a local client's traffic appears twice: sent and received)."}
	return t
}

// DSBenchPerTransactionText renders it.
func DSBenchPerTransactionText(r *results.DSBenchResults) []byte {
	var b bytes.Buffer
	DSBenchPerTransaction(r).Text(&b)
	return b.Bytes()
}
