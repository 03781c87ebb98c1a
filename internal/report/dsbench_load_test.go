package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
)

// The per-transaction table shows the CPU shares as percentages, and
// "unknown" where results.json has none (a remote server; a run from
// before the shares, whose client CPU per transaction is derived).
func TestDSBenchPerTransactionCPU(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	r := &results.DSBenchResults{ServerProcesses: "postgres (pid 812) and its child processes", Scales: []results.ScaleResult{
		{Scale: 1, MedianTPS: 1000, Transactions: 20000, ClientCPUS: 5, MachineCPUs: 4, CPUIntervalS: 10,
			ClientCPUPerTxUS: f(250), ClientCPUShare: f(0.125), MachineCPUShare: f(0.81), ServerCPUS: f(24), ServerCPUShare: f(0.6)},
		{Scale: 2, MedianTPS: 900, Transactions: 18000, ClientCPUS: 4.5}, // an old run
	}}
	tab := DSBenchPerTransaction(r)
	want := [][]string{
		{"scale", "median_tps", "written_kB", "network_bytes", "iowait_ms", "client_cpu_us", "client_cpu_%", "server_cpu_%", "machine_cpu_%"},
		{"1", "1000.0", "0.00", "0", "0.000", "250.0", "12.5", "60.0", "81.0"},
		{"2", "900.0", "0.00", "0", "0.000", "250.0", "unknown", "unknown", "unknown"},
	}
	for i := range want {
		if !slices.Equal(tab.Rows[i], want[i]) {
			t.Errorf("row %d = %q, want %q", i, tab.Rows[i], want[i])
		}
	}
	notes := strings.Join(tab.Notes, "\n")
	if !strings.Contains(notes, "shares of all 4 CPUs") || !strings.Contains(notes, "server: postgres (pid 812) and its child processes.") {
		t.Errorf("notes %q", notes)
	}
}
