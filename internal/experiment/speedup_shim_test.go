package experiment

import (
	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/duckdb"
	"github.com/dbgauge/dbgauge/internal/dbms/postgres"
)

// The speedup tests were written when the engines' knobs and PostgreSQL's
// EXPLAIN reader lived in this package; these reach them where they live
// now, in the engines (dbms.ParallelQuery, dbms.PlanAnalyzer).

type planFacts struct{ planned, launched, batches int }

func pgPlanFacts(doc string) (planFacts, error) {
	f, err := postgres.PlanFacts(doc)
	return planFacts{f.WorkersPlanned, f.WorkersLaunched, f.HashBatches}, err
}

func pointSettings(engine string, p int, total int64) []string {
	switch engine {
	case "postgres":
		return postgres.ParallelSettings(p, total)
	case "duckdb":
		return duckdb.ParallelSettings(p, total)
	}
	return nil
}

var pageDBPath = dbms.PageDBPath
