package experiment

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// population is what building one scale's database took (seed 001 §4.3:
// drop, populate, primary keys, foreign keys, timed separately).
type population struct {
	drop, populate, primaryKey, foreignKey time.Duration
	// keyedTables are the tables created with their primary keys
	// (dbms.KeyedTables): their keys' cost is in populate, not primaryKey.
	keyedTables []string
	notes       []string
	sizeBytes   int64
}

// populate drops the previous tables of the workload, creates its tables
// of scale x, fills them through the engine's bulk path (the parts of a
// partitioned table on several sessions at once, which open opens; nil:
// on e alone), then adds the primary keys and then the foreign keys, each
// a whole table at a time, analyzes them, creates the procedure of the
// procedure form, and measures the size. On an engine that stores its
// tables in their primary keys (dbms.KeyedTables) each table is created
// with its key instead, and the rows go into it as the workload makes
// them (the workloads here make them in the key's order, so each load
// appends to the key's B-tree).
func populate(ctx context.Context, e dbms.Engine, open opener, w workload.Workload, x int64, form string, pr *progress.Printer) (*population, error) {
	p := &population{}
	sch := w.Schema(x)
	start := time.Now()
	if d, ok := w.(workload.Dropper); ok {
		for _, st := range d.DropFirst(e) {
			if _, err := e.Exec(ctx, st); err != nil {
				return nil, fmt.Errorf("drop what depends on the tables: %w", err)
			}
		}
	}
	for i := len(sch.Tables) - 1; i >= 0; i-- { // children before parents
		if err := e.DropTable(ctx, sch.Tables[i].Name); err != nil {
			return nil, fmt.Errorf("drop %s: %w", sch.Tables[i].Name, err)
		}
	}
	p.drop = time.Since(start)

	start = time.Now()
	loader := &tableLoader{e: e, open: open, pr: pr, scale: x}
	defer loader.close()
	keyed := keysWithTables(e, sch)
	for _, t := range sch.Tables {
		if err := createTable(ctx, e, t.Table, keyed[t.Name]); err != nil {
			return nil, fmt.Errorf("create %s: %w", t.Name, err)
		}
		if keyed[t.Name] != nil {
			p.keyedTables = append(p.keyedTables, t.Name)
		}
		if !t.Filled() {
			continue
		}
		if err := loader.load(ctx, t); err != nil {
			return nil, err
		}
	}
	loader.close()
	if in, ok := w.(workload.Initializer); ok {
		pr.Live("scale %d: running the workload's init", x)
		if err := in.Init(ctx, e, x); err != nil {
			return nil, err
		}
	}
	p.populate = time.Since(start)

	keys, ok := e.(dbms.Keys)
	start = time.Now()
	for _, pk := range sch.PrimaryKeys {
		if keyed[pk.Table] != nil {
			continue
		}
		if !ok {
			return nil, fmt.Errorf("%s cannot add primary keys", e.Name())
		}
		if err := keys.AddPrimaryKey(ctx, pk.Table, pk.Columns...); err != nil {
			return nil, fmt.Errorf("primary key of %s: %w", pk.Table, err)
		}
	}
	// The schema's secondary indexes, after its primary keys: keys the
	// transactions search by, timed with the primary keys.
	for _, ix := range sch.Indexes {
		if err := e.CreateIndex(ctx, ix.Table, ix.Name, strings.Join(ix.Columns, ", "), dbms.BTree, ix.Unique); err != nil {
			return nil, fmt.Errorf("index %s on %s: %w", ix.Name, ix.Table, err)
		}
	}
	p.primaryKey = time.Since(start)

	start = time.Now()
	for _, fk := range sch.ForeignKeys {
		if !ok {
			return nil, fmt.Errorf("%s cannot add foreign keys", e.Name())
		}
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

	for _, t := range sch.Tables {
		if err := e.Analyze(ctx, t.Name); err != nil {
			return nil, fmt.Errorf("analyze %s: %w", t.Name, err)
		}
	}
	if form == formProcedure {
		proc, err := procedureOf(w, e)
		if err != nil {
			return nil, err
		}
		for _, st := range proc.Create {
			if _, err := e.Exec(ctx, st); err != nil {
				return nil, fmt.Errorf("create the procedures: %w", err)
			}
		}
	}
	if sr, ok := e.(dbms.SizeReporter); ok && len(sch.Tables) > 0 {
		size, err := sr.TableBytes(ctx, sch.Names()...)
		if err != nil {
			return nil, fmt.Errorf("measure the database size: %w", err)
		}
		p.sizeBytes = size
	} else if sz, ok := w.(workload.Sizer); ok && sr != nil {
		if names := sz.SizeTables(e.Name()); len(names) > 0 {
			// The workload's own guess at its tables: a miss is a note,
			// not a failed scale.
			if size, err := sr.TableBytes(ctx, names...); err != nil {
				p.notes = append(p.notes, fmt.Sprintf("database size not measured (tables %s): %v", strings.Join(names, ", "), err))
			} else {
				p.sizeBytes = size
			}
		}
	}
	pr.Line("scale %-6d populated in %.2f s%s, %s %.2f s, foreign keys %.2f s, %.1f MB", x, p.populate.Seconds(), p.keyedNote(), p.keysName(), p.primaryKey.Seconds(), p.foreignKey.Seconds(), float64(p.sizeBytes)/1e6)
	return p, nil
}

// keysWithTables are the primary keys' columns by table name when e
// stores its tables in their primary keys (dbms.KeyedTables): such tables
// are created with their keys. nil on any other engine.
func keysWithTables(e dbms.Engine, sch workload.Schema) map[string][]string {
	if _, ok := e.(dbms.KeyedTables); !ok {
		return nil
	}
	keys := map[string][]string{}
	for _, pk := range sch.PrimaryKeys {
		keys[pk.Table] = pk.Columns
	}
	return keys
}

// createTable creates t, with its primary key on key when key is not nil
// (e is then a dbms.KeyedTables).
func createTable(ctx context.Context, e dbms.Engine, t dbms.Table, key []string) error {
	if key == nil {
		return e.CreateTable(ctx, t)
	}
	return e.(dbms.KeyedTables).CreateTableWithKey(ctx, t, key)
}

// keyedNote says, after the populate time, that it holds the primary
// keys made with the tables; "" when none was.
func (p *population) keyedNote() string {
	if len(p.keyedTables) == 0 {
		return ""
	}
	return " (with the primary keys, made with the tables)"
}

// keysName names what the primary-key time holds: the secondary indexes
// alone when the keys were made with the tables.
func (p *population) keysName() string {
	if len(p.keyedTables) == 0 {
		return "primary keys"
	}
	return "indexes"
}

// The forms of a transaction: client statements, or one call of the
// workload's server-side procedure (workload.Procedurer).
const (
	formProcedure  = "procedure"
	formStatements = "statements"
)

// procedureOf is the workload's procedure on e's engine; an error when the
// workload has no procedure form or the engine no procedures.
func procedureOf(w workload.Workload, e dbms.Engine) (*workload.Procedure, error) {
	pw, ok := w.(workload.Procedurer)
	if !ok {
		return nil, fmt.Errorf("the %s workload has no procedure form: use --form statements", w.Meta().Name)
	}
	return pw.Procedure(e)
}
