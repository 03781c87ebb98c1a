package cli

import (
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
)

// TestLostAcksFailTheRun: a sweep whose check of acknowledged writes
// found some missing ends with exit 1 naming them, as an inconsistent
// one does; a scale without the check, or with nothing lost, passes.
func TestLostAcksFailTheRun(t *testing.T) {
	ok := &results.DSBenchResults{Scales: []results.ScaleResult{{Scale: 1, Consistent: true}, {Scale: 2, Consistent: true, Acks: &results.AckCheck{Checked: true, Acked: 10}}}}
	if err := dsbenchConsistent(ok, nil); err != nil {
		t.Errorf("nothing lost: %v", err)
	}
	lost := &results.DSBenchResults{Scales: []results.ScaleResult{{Scale: 2, Consistent: true, Acks: &results.AckCheck{Checked: true, Acked: 10, LostAcked: 2}}}}
	if err := dsbenchConsistent(lost, nil); err == nil || !strings.Contains(err.Error(), "scale 2: 2 of 10 acknowledged writes lost") {
		t.Errorf("2 of 10 lost: %v: want the run failed, naming them", err)
	}
}
