package cli

import (
	"testing"

	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestOrdersProcedureOnAgents: the order-entry workload's procedure form
// from two remote agents on two warehouses of a private PostgreSQL (each
// agent's terminals calling the procedures on a warehouse of their own):
// the run records the form, the agents' per-type counts add up, every
// type ran, and the scale is consistent.
func TestOrdersProcedureOnAgents(t *testing.T) {
	inst := servertest.Start(t, "postgres", server.Options{})
	sw := startAgentSweep(t, inst.URL, 2, []string{"a1", "a2"}, "--workload", "orders", "--form", "procedure", "--scales", "2", "--retry")
	sw.succeeded(t, sw.agents["a1"], sw.agents["a2"])
	res := sw.results(t)
	if res.Form != "procedure" || len(res.Scales) != 1 {
		t.Fatalf("form %q, %d scales", res.Form, len(res.Scales))
	}
	s := res.Scales[0]
	countsAddUp(t, s)
	if !s.Consistent {
		t.Errorf("inconsistent: %v %s", s.Inconsistency, s.Unchecked)
	}
	for _, ty := range s.Types {
		if ty.Count == 0 {
			t.Errorf("no %s committed: %+v", ty.Name, s.Types)
		}
	}
	if len(s.Types) != 5 || len(s.NodeRates) != 2 {
		t.Errorf("types %+v, node rates %+v: want five types from two agents", s.Types, s.NodeRates)
	}
}
