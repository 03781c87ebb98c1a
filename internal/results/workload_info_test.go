package results

import (
	"encoding/json"
	"testing"
)

// A run names its workload by the title it stored; a run stored before
// results said (no "workload" key) by the title its mode had then.
func TestWorkloadTitle(t *testing.T) {
	for _, c := range []struct {
		json, want string
	}{
		{`{"experiment": "dsbench", "mode": "tpcb"}`, "TPC-B"},
		{`{"experiment": "dsbench", "mode": "select"}`, "SELECT"},
		{`{"experiment": "dsbench", "mode": "kv"}`, "KV"},
		{`{"experiment": "dsbench", "mode": "kv", "workload": {"title": "Key-value", "writes": true, "types": [{"name": "get", "weight": 3}]}}`, "Key-value"},
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
