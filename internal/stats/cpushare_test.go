package stats

import (
	"math"
	"testing"
)

// Hand-derived: 6 s of client CPU over 10 s on 4 CPUs (40 CPU seconds) is
// 0.15 of the machine and 500 µs for each of 12,000 transactions; 3,000
// busy of 4,000 ticks is 0.75; 20 s of server CPU is 0.5.
func TestSharesOfCPU(t *testing.T) {
	u := CPUUse{ElapsedS: 10, CPUs: 4, ClientCPUS: 6, MachineBusy: 3000, MachineTotal: 4000, ServerCPUS: 20, ServerKnown: true, Transactions: 12000}
	got := SharesOfCPU(u)
	want := CPUShares{ClientPerTxUS: 500, Client: 0.15, Machine: 0.75, Server: 0.5}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"client per tx", got.ClientPerTxUS, want.ClientPerTxUS},
		{"client", got.Client, want.Client},
		{"machine", got.Machine, want.Machine},
		{"server", got.Server, want.Server},
	} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}

	// What was not measured stays unknown (NaN), never 0.
	unknown := SharesOfCPU(CPUUse{ElapsedS: 10, CPUs: 4, ClientCPUS: 6, ServerCPUS: 20})
	if !math.IsNaN(unknown.ClientPerTxUS) || !math.IsNaN(unknown.Machine) || !math.IsNaN(unknown.Server) || unknown.Client != 0.15 {
		t.Errorf("no transactions, no /proc/stat, no server: %+v", unknown)
	}
	if none := SharesOfCPU(CPUUse{ClientCPUS: 1, Transactions: 10}); !math.IsNaN(none.Client) || none.ClientPerTxUS != 1e5 {
		t.Errorf("no elapsed time: %+v", none)
	}
}
