package postgres

import "testing"

func TestPlanFacts(t *testing.T) {
	doc := `[{"Plan": {"Node Type": "Aggregate", "Plans": [{"Node Type": "Gather", "Workers Planned": 2, "Workers Launched": 1,
		"Plans": [{"Node Type": "Hash Join", "Plans": [{"Node Type": "Seq Scan"}, {"Node Type": "Hash", "Hash Batches": 4, "Original Hash Batches": 2}]}]}]}}]`
	f, err := planFacts(doc)
	if err != nil {
		t.Fatal(err)
	}
	if f.WorkersPlanned != 2 || f.WorkersLaunched != 1 || f.HashBatches != 4 {
		t.Errorf("facts %+v, want planned 2, launched 1, batches 4", f)
	}
	f, err = planFacts(`[{"Plan": {"Node Type": "Seq Scan"}}]`)
	if err != nil || f.HashBatches != -1 || f.WorkersPlanned != 0 {
		t.Errorf("a plan without hash node: %+v %v, want batches -1 (none)", f, err)
	}
}

func TestParallelSettingsHoldTotalMemory(t *testing.T) {
	// 256 MiB over 4 processes: work_mem 64 MiB = 65536 kB, 3 workers.
	got := parallelSettings(4, 256<<20)
	if got[0] != "max_parallel_workers_per_gather = 3" || got[1] != "work_mem = '65536kB'" {
		t.Errorf("postgres p=4: %v", got)
	}
}
