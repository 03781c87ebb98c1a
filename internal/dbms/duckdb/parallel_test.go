package duckdb

import "testing"

func TestParallelSettingsHoldTotalMemory(t *testing.T) {
	// DuckDB keeps the whole budget for its threads.
	got := parallelSettings(4, 256<<20)
	if got[0] != "threads = 4" || got[1] != "memory_limit = '262144KiB'" {
		t.Errorf("duckdb p=4: %v", got)
	}
}
