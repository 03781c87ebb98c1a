package report

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/dbgauge/dbgauge/internal/results"
)

// DSBenchPerTransaction is the load per committed transaction of every
// scale (seed 001 Tables 8, 12, 16, 17), from the samples taken while the
// cycles ran, with the client's own CPU beside it: per transaction, and as
// shares of the whole machine's CPU (all CPUs together) of the client, the
// server (when it runs on this machine and its processes are known) and
// everything ("unknown" where the run could not tell).
func DSBenchPerTransaction(r *results.DSBenchResults) *Table {
	t := &Table{Title: []string{"Load per committed transaction, measured while the cycles ran"}}
	t.Rows = append(t.Rows, []string{"scale", "median_tps", "written_kB", "network_bytes", "iowait_ms", "client_cpu_us", "client_cpu_%", "server_cpu_%", "machine_cpu_%"})
	f := func(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }
	share := func(v *float64) string {
		if v == nil {
			return "unknown"
		}
		return f(100**v, 1)
	}
	for _, s := range r.Scales {
		cpu := 0.0
		switch {
		case s.ClientCPUPerTxUS != nil:
			cpu = *s.ClientCPUPerTxUS
		case s.Transactions > 0: // a run from before the field
			cpu = 1e6 * s.ClientCPUS / float64(s.Transactions)
		}
		t.Rows = append(t.Rows, []string{strconv.FormatInt(s.Scale, 10), f(s.MedianTPS, 1), f(s.WriteKBPerTx, 2), f(s.NetBytesPerTx, 0), f(s.IOWaitMSPerTx, 3), f(cpu, 1),
			share(s.ClientCPUShare), share(s.ServerCPUShare), share(s.MachineCPUShare)})
	}
	t.Notes = []string{"network bytes count every interface, loopback included, both directions (a local client's traffic appears twice: sent and received)."}
	if cpus := machineCPUs(r); cpus > 0 {
		client := "the client is dbgauge's process"
		if len(r.Agents) > 0 {
			client = "the client is the remote agents' processes (client_cpu_us is their CPU added up, per transaction; their share of their own machines is not one figure, so client_cpu_% is unknown), the machine the master's"
		}
		t.Notes = append(t.Notes, fmt.Sprintf("client_cpu_%%, server_cpu_%% and machine_cpu_%% are shares of all %d CPUs of the machine over the cycles (checks and cleanups between them left out): %s, machine is every busy CPU from /proc/stat.", cpus, client))
	}
	if r.ServerProcesses != "" {
		t.Notes = append(t.Notes, "server: "+r.ServerProcesses+".")
	}
	return t
}

// machineCPUs is the CPU count the shares are of (0 when no scale has it).
func machineCPUs(r *results.DSBenchResults) int {
	n := 0
	for _, s := range r.Scales {
		n = max(n, s.MachineCPUs)
	}
	return n
}

// DSBenchPerTransactionText renders it.
func DSBenchPerTransactionText(r *results.DSBenchResults) []byte {
	var b bytes.Buffer
	DSBenchPerTransaction(r).Text(&b)
	return b.Bytes()
}
