package experiment

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/workload/tpcb"
)

// population is what building one scale's database took (seed 001 §4.3:
// drop, populate, primary keys, foreign keys, timed separately).
type population struct {
	drop, populate, primaryKey, foreignKey time.Duration
	notes                                  []string
	sizeBytes                              int64
}

// populate drops the previous tables, creates the tables of scale x, fills
// them through the engine's bulk path, then adds the primary keys and then
// the foreign keys, each a whole table at a time, and measures the size.
func populate(ctx context.Context, e dbms.Engine, x int64, form string, pr *progress.Printer) (*population, error) {
	p := &population{}
	start := time.Now()
	// A procedure left by an earlier run depends on the tables: drop it
	// whatever this run's form.
	if proc, err := tpcb.ProcedureFor(e); err == nil && proc.Drop != "" {
		if _, err := e.Exec(ctx, proc.Drop); err != nil {
			return nil, fmt.Errorf("drop the procedure: %w", err)
		}
	}
	for i := len(tpcb.Tables) - 1; i >= 0; i-- { // children before parents
		if err := e.DropTable(ctx, tpcb.Tables[i]); err != nil {
			return nil, fmt.Errorf("drop %s: %w", tpcb.Tables[i], err)
		}
	}
	p.drop = time.Since(start)

	start = time.Now()
	for _, t := range tpcb.Schema(x) {
		if err := e.CreateTable(ctx, t); err != nil {
			return nil, fmt.Errorf("create %s: %w", t.Name, err)
		}
		if t.Name == tpcb.History {
			continue
		}
		rows := tpcb.NewRows(t.Name, x)
		pr.Live("scale %d: populating %s (%d rows)", x, t.Name, rows.Count())
		n, err := e.Load(ctx, t, rows)
		if err != nil {
			return nil, fmt.Errorf("populate %s: %w", t.Name, err)
		}
		if n != rows.Count() {
			return nil, fmt.Errorf("populate %s: engine took %d rows of %d", t.Name, n, rows.Count())
		}
	}
	p.populate = time.Since(start)

	keys, ok := e.(dbms.Keys)
	start = time.Now()
	for _, pk := range tpcb.PrimaryKeys {
		if !ok {
			return nil, fmt.Errorf("%s cannot add primary keys", e.Name())
		}
		if err := keys.AddPrimaryKey(ctx, pk.Table, pk.Column); err != nil {
			return nil, fmt.Errorf("primary key of %s: %w", pk.Table, err)
		}
	}
	p.primaryKey = time.Since(start)

	start = time.Now()
	for _, fk := range tpcb.ForeignKeys {
		err := keys.AddForeignKey(ctx, fk.Table, fk.Column, fk.RefTable, fk.RefColumn)
		if errors.Is(err, dbms.ErrNotSupported) {
			p.notes = append(p.notes, fmt.Sprintf("no foreign keys: %v", err))
			break
		}
		if err != nil {
			return nil, fmt.Errorf("foreign key %s.%s: %w", fk.Table, fk.Column, err)
		}
	}
	p.foreignKey = time.Since(start)

	for _, t := range tpcb.Tables {
		if err := e.Analyze(ctx, t); err != nil {
			return nil, fmt.Errorf("analyze %s: %w", t, err)
		}
	}
	if form == formProcedure {
		proc, err := tpcb.ProcedureFor(e)
		if err != nil {
			return nil, err
		}
		if _, err := e.Exec(ctx, proc.Create); err != nil {
			return nil, fmt.Errorf("create the procedure: %w", err)
		}
	}
	if sr, ok := e.(dbms.SizeReporter); ok {
		size, err := sr.TableBytes(ctx, tpcb.Tables...)
		if err != nil {
			return nil, fmt.Errorf("measure the database size: %w", err)
		}
		p.sizeBytes = size
	}
	pr.Line("scale %-6d populated in %.2f s, primary keys %.2f s, foreign keys %.2f s, %.1f MB", x, p.populate.Seconds(), p.primaryKey.Seconds(), p.foreignKey.Seconds(), float64(p.sizeBytes)/1e6)
	return p, nil
}

const (
	formProcedure  = "procedure"
	formStatements = "statements"
	modeTPCB       = "tpcb"
	modeSelect     = "select"
)
