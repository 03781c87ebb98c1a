package stats

import "math"

// CPUUse is what was measured over one stretch of wall-clock time (the
// cycles of a dsbench scale, summed over the cycles): who used how much of
// the machine's CPU.
type CPUUse struct {
	// ElapsedS is the wall-clock time covered; CPUs the CPUs online, so
	// that ElapsedS x CPUs is all the CPU time the machine had.
	ElapsedS float64
	CPUs     int
	// ClientCPUS is the client's (dbgauge's process's) user + system time.
	ClientCPUS float64
	// MachineBusy and MachineTotal are /proc/stat's busy and total ticks of
	// all CPUs over the same time; MachineTotal = 0: unknown.
	MachineBusy, MachineTotal uint64
	// ServerCPUS is the server processes' user + system time, when
	// ServerKnown.
	ServerCPUS  float64
	ServerKnown bool
	// Transactions committed in that time.
	Transactions int64
}

// CPUShares is CPUUse as rates; NaN stands for "unknown".
type CPUShares struct {
	// ClientPerTxUS is client CPU microseconds per committed transaction.
	ClientPerTxUS float64
	// Client and Server are their CPU time over ElapsedS x CPUs; Machine is
	// MachineBusy / MachineTotal. All three are in 0..1: 0.25 is a quarter
	// of all the machine's CPUs.
	Client, Machine, Server float64
}

// SharesOfCPU computes the shares: client_cpu_per_tx_us = 1e6 x
// ClientCPUS / Transactions, client_cpu_share = ClientCPUS / (ElapsedS x
// CPUs), machine_cpu_share = MachineBusy / MachineTotal, server_cpu_share =
// ServerCPUS / (ElapsedS x CPUs).
func SharesOfCPU(u CPUUse) CPUShares {
	nan := math.NaN()
	s := CPUShares{ClientPerTxUS: nan, Client: nan, Machine: nan, Server: nan}
	if u.Transactions > 0 {
		s.ClientPerTxUS = 1e6 * u.ClientCPUS / float64(u.Transactions)
	}
	capacity := u.ElapsedS * float64(u.CPUs)
	if capacity > 0 {
		s.Client = u.ClientCPUS / capacity
		if u.ServerKnown {
			s.Server = u.ServerCPUS / capacity
		}
	}
	if u.MachineTotal > 0 {
		s.Machine = float64(u.MachineBusy) / float64(u.MachineTotal)
	}
	return s
}
