package experiment

import (
	"testing"

	"github.com/dbgauge/dbgauge/internal/workload"
)

// A workload's client counts (workload.Counter) travel as a remote agent's
// counters and add up on the master with its own threads': the check sees
// the sum of every client's, once.
func TestCountsFromAgents(t *testing.T) {
	cfg := workload.ClientConfig{}
	agent := newDSBenchClients(kvLoad{}, cfg, 2, 2)
	master := newDSBenchClients(kvLoad{}, cfg, 2, 2)
	// The agent runs node 1: its two threads counted 3 and 4 even puts.
	agent.counts[agent.client(1, 0)].Add(3)
	agent.counts[agent.client(1, 1)].Add(4)
	// The master's node 0 counted 5.
	master.counts[master.client(0, 1)].Add(5)
	master.fromCounters(1, agent.counters())
	n := master.take()
	if len(n.Counts) != 1 || n.Counts[0] != 12 {
		t.Errorf("counts %v, want [12]: 3 + 4 from the agent, 5 local", n.Counts)
	}
	if again := master.take(); again.Counts[0] != 0 {
		t.Errorf("a second take counts %v again", again.Counts)
	}
	// The same workload without its Counter ability counts nothing.
	plain := struct{ workload.Workload }{kvLoad{}}
	if none := newDSBenchClients(plain, cfg, 1, 1); none.take().Counts != nil {
		t.Errorf("a workload that counts nothing has counts")
	}
}
