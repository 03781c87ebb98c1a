package dbms

import "context"

// PlanFacts is what an executed plan says about parallelism and spills;
// -1 in a field means the plan did not say.
type PlanFacts struct {
	// WorkersPlanned and WorkersLaunched are the most parallel workers any
	// node of the plan planned and launched.
	WorkersPlanned, WorkersLaunched int
	// HashBatches is the most batches of any hash node (1: its build side
	// fitted in memory; -1: no hash node).
	HashBatches int
}

// PlanAnalyzer is an engine that can execute a statement and report what
// its plan did (PostgreSQL's EXPLAIN ANALYZE). The speedup experiment calls
// it for the untimed warm-up of every point, so the statement is executed
// exactly once, with its side effects (a CREATE TABLE AS creates the
// table). Engines without it run the statement plainly and report no facts.
type PlanAnalyzer interface {
	AnalyzePlan(ctx context.Context, stmt string) (PlanFacts, error)
}
