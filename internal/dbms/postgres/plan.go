package postgres

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var _ dbms.PlanAnalyzer = (*Engine)(nil)

// AnalyzePlan executes stmt under EXPLAIN (ANALYZE, FORMAT JSON) and reads
// what its plan did (PlanFacts).
func (e *Engine) AnalyzePlan(ctx context.Context, stmt string) (dbms.PlanFacts, error) {
	doc, err := dbms.FirstValue(ctx, e, "EXPLAIN (ANALYZE, FORMAT JSON) "+stmt)
	if err != nil {
		return dbms.PlanFacts{WorkersPlanned: -1, WorkersLaunched: -1, HashBatches: -1}, err
	}
	return planFacts(doc)
}

// planFacts reads PostgreSQL's EXPLAIN (ANALYZE, FORMAT JSON): the most
// workers any Gather planned and launched, and the most batches of any
// Hash node (1: the build side fitted in memory; -1: no Hash node).
func planFacts(doc string) (dbms.PlanFacts, error) {
	var plans []struct {
		Plan map[string]any `json:"Plan"`
	}
	if err := json.Unmarshal([]byte(doc), &plans); err != nil {
		return dbms.PlanFacts{}, fmt.Errorf("EXPLAIN JSON: %w", err)
	}
	f := dbms.PlanFacts{}
	var walk func(n map[string]any)
	walk = func(n map[string]any) {
		num := func(k string) int {
			if v, ok := n[k].(float64); ok {
				return int(v)
			}
			return 0
		}
		f.WorkersPlanned = max(f.WorkersPlanned, num("Workers Planned"))
		f.WorkersLaunched = max(f.WorkersLaunched, num("Workers Launched"))
		f.HashBatches = max(f.HashBatches, num("Hash Batches"))
		if kids, ok := n["Plans"].([]any); ok {
			for _, k := range kids {
				if m, ok := k.(map[string]any); ok {
					walk(m)
				}
			}
		}
	}
	for _, p := range plans {
		walk(p.Plan)
	}
	if f.HashBatches == 0 {
		f.HashBatches = -1 // no hash node: no batches to report
	}
	return f, nil
}
