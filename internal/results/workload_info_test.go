package results

import (
	"encoding/json"
	"testing"

	"github.com/dbgauge/dbgauge/internal/workload"
)

// A run names its workload by the title it stored; a run stored before
// results said (no "workload" key) by the title its registered workload
// has (the command's titler, here the registry's), else its mode in
// capitals.
func TestWorkloadTitle(t *testing.T) {
	SetTitler(workload.Title)
	defer titler.Store(nil)
	for _, c := range []struct {
		json, want string
	}{
		{`{"experiment": "dsbench", "mode": "tpcb"}`, "TPC-B"},
		{`{"experiment": "dsbench", "mode": "select"}`, "SELECT"},
		{`{"experiment": "dsbench", "mode": "kv"}`, "KV"},
		{`{"experiment": "dsbench", "mode": "kv", "workload": {"title": "Key-value", "writes": true, "types": [{"name": "get", "weight": 3}]}}`, "Key-value"},
		{`{"experiment": "dsbench", "mode": "orders", "workload": {"title": "Order entry", "variant": "no waits"}}`, "Order entry, no waits"},
	} {
		var r DSBenchResults
		if err := json.Unmarshal([]byte(c.json), &r); err != nil {
			t.Fatal(err)
		}
		if got := r.WorkloadTitle(); got != c.want {
			t.Errorf("%s: title %q, want %q", c.json, got, c.want)
		}
	}
}
