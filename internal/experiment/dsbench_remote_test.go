package experiment

import (
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/nodes"
	"github.com/dbgauge/dbgauge/internal/results"
)

// A node lost at scale 1 runs no cycle of scale 2: it gets no rate there
// (a gap: the agents table says "-", the node diagram has no point), not
// a median of 0 tps it never measured; the survivor's rate is over its
// own cycles, 1 to 3.
func TestNodeResultsGapForLostNode(t *testing.T) {
	r := &dsbenchRun{plan: DSBenchPlan{Duration: 2 * time.Second}, res: &results.DSBenchResults{Agents: []results.AgentInfo{
		{Node: 0, Name: "a1", Status: "ok"}, {Node: 1, Name: "a2", Status: "lost"}}}}
	sr := &results.ScaleResult{Scale: 2, CycleDetail: []results.CycleDetail{
		{Cycle: 1, Node: 0, Committed: 200}, {Cycle: 2, Node: 0, Committed: 100}, {Cycle: 3, Node: 0, Committed: 300}}}
	out := &nodes.Outcome{Result: driver.NewResult(false), PerNode: []*driver.Result{driver.NewResult(false), driver.NewResult(false)},
		CPUSeconds: []float64{1, 0}}
	out.Cycles = make([]driver.CycleResult, 3)
	if err := r.nodeResults(sr, out); err != nil {
		t.Fatal(err)
	}
	if len(sr.NodeRates) != 1 || sr.NodeRates[0].Name != "a1" || sr.NodeRates[0].MedianTPS != 100 {
		t.Errorf("node rates %+v, want a1 alone at its median 200/2 = 100 tps", sr.NodeRates)
	}
}
