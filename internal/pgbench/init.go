package pgbench

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// Init runs pgbench -i's steps (o.InitSteps, in order) on e at o.Scale:
// d drops the four tables, t creates them (with o.FillFactor and
// o.UnloggedTables where the engine has them), g and G fill them through
// the engine's bulk load, v vacuums or analyzes them, p adds the primary
// keys, f the foreign keys. It writes pgbench's step lines to w and
// returns notes on what the engine could not do (foreign keys on an engine
// that cannot add them). What the engine lacks and the options ask for is
// refused before anything changes.
func Init(ctx context.Context, e dbms.Engine, o *Options, w io.Writer) (notes []string, err error) {
	if o.FillFactor == 0 || o.InitSteps == "" {
		c := *o
		c.FillFactor, c.InitSteps = cmp.Or(c.FillFactor, 100), cmp.Or(c.InitSteps, DefaultInitSteps)
		o = &c
	}
	if err := checkInit(e, o); err != nil {
		return nil, dbms.Wrap(dbms.BadInput, err)
	}
	start := time.Now()
	var timings []string
	for _, step := range o.InitSteps {
		if step == ' ' {
			continue
		}
		s := initSteps[step]
		fmt.Fprintf(w, "%s...\n", s.says)
		t0 := time.Now()
		n, err := s.run(ctx, e, o, w)
		if err != nil {
			return notes, fmt.Errorf("pgbench -i, %s: %w", s.name, err)
		}
		notes = append(notes, n...)
		timings = append(timings, fmt.Sprintf("%s %.2f s", s.name, time.Since(t0).Seconds()))
	}
	fmt.Fprintf(w, "done in %.2f s (%s).\n", time.Since(start).Seconds(), strings.Join(timings, ", "))
	return notes, nil
}

// checkInit refuses what the options ask of an engine that cannot do it.
func checkInit(e dbms.Engine, o *Options) error {
	if _, ok := e.(dbms.FillFactorer); !ok && o.FillFactor != 100 && strings.Contains(o.InitSteps, "t") {
		return fmt.Errorf("-F %d: %s has no fill factor; leave -F out", o.FillFactor, e.Name())
	}
	if _, ok := e.(dbms.Unlogger); !ok && o.UnloggedTables && strings.Contains(o.InitSteps, "t") {
		return fmt.Errorf("--unlogged-tables: %s has no unlogged tables; leave it out", e.Name())
	}
	if _, ok := e.(dbms.Keys); !ok && strings.ContainsAny(o.InitSteps, "pf") {
		return fmt.Errorf("-I %s: %s cannot add keys to a table; leave p and f out of -I", o.InitSteps, e.Name())
	}
	return nil
}

// initStep is one of -I's letters.
type initStep struct {
	// says is pgbench's line for the step; name its name in the timings.
	says, name string
	run        func(ctx context.Context, e dbms.Engine, o *Options, w io.Writer) ([]string, error)
}

var initSteps = map[rune]initStep{
	'd': {"dropping old tables", "drop tables", dropTables},
	't': {"creating tables", "create tables", createTables},
	'g': {"generating data (client-side)", "client-side generate", generate},
	// G: pgbench has the server generate the rows with generate_series;
	// the rows are the same, and every engine's fastest way in is its
	// bulk load, so G loads them as g does.
	'G': {"generating data (server-side)", "server-side generate", generate},
	'v': {"vacuuming", "vacuum", vacuum},
	'p': {"creating primary keys", "primary keys", addPrimaryKeys},
	'f': {"creating foreign keys", "foreign keys", addForeignKeys},
}

func dropTables(ctx context.Context, e dbms.Engine, _ *Options, _ io.Writer) ([]string, error) {
	for _, t := range dropOrder {
		if err := e.DropTable(ctx, t); err != nil {
			return nil, fmt.Errorf("drop %s: %w", t, err)
		}
	}
	return nil, nil
}

func createTables(ctx context.Context, e dbms.Engine, o *Options, _ io.Writer) ([]string, error) {
	for _, t := range tables(o.Scale) {
		if err := e.CreateTable(ctx, t); err != nil {
			return nil, fmt.Errorf("create %s: %w", t.Name, err)
		}
		// pgbench declares the key columns NOT NULL; where the engine
		// cannot say so now, the primary keys of the p step do.
		if nn, ok := e.(dbms.NotNuller); ok && t.Name != History {
			if err := nn.SetNotNull(ctx, t.Name, t.Columns[0].Name); err != nil {
				return nil, err
			}
		}
		// pgbench declares the fill factor of every table but the
		// history, 100 unless -F says otherwise.
		if ff, ok := e.(dbms.FillFactorer); ok && t.Name != History {
			if err := ff.SetFillFactor(ctx, t.Name, o.FillFactor); err != nil {
				return nil, err
			}
		}
		if o.UnloggedTables {
			if err := e.(dbms.Unlogger).SetUnlogged(ctx, t.Name); err != nil {
				return nil, err
			}
		}
	}
	return nil, nil
}

// generate empties the tables and fills branches, tellers and accounts;
// the history stays empty.
func generate(ctx context.Context, e dbms.Engine, o *Options, w io.Writer) ([]string, error) {
	for _, t := range dropOrder {
		if _, err := e.Exec(ctx, "DELETE FROM "+t); err != nil {
			return nil, fmt.Errorf("empty %s: %w", t, err)
		}
	}
	defs := map[string]dbms.Table{}
	for _, t := range tables(o.Scale) {
		defs[t.Name] = t
	}
	for _, name := range []string{Branches, Tellers, Accounts} {
		src := newRows(name, o.Scale)
		var rows dbms.RowSource = src
		if name == Accounts {
			rows = &loadProgress{RowSource: src, total: src.n, quiet: o.Quiet, w: w, start: time.Now(), last: time.Now()}
		}
		n, err := e.Load(ctx, defs[name], rows)
		if err != nil {
			return nil, fmt.Errorf("load %s: %w", name, err)
		}
		if n != src.n {
			return nil, fmt.Errorf("load %s: the engine took %d rows of %d", name, n, src.n)
		}
		// The fillers pgbench leaves NULL: a few rows per scale, and a
		// bulk load path (fixed-width files) may have no NULL.
		if nullFiller[name] {
			if _, err := e.Exec(ctx, "UPDATE "+name+" SET filler = NULL"); err != nil {
				return nil, fmt.Errorf("%s filler: %w", name, err)
			}
		}
	}
	return nil, nil
}

func vacuum(ctx context.Context, e dbms.Engine, _ *Options, _ io.Writer) ([]string, error) {
	for _, t := range []string{Branches, Tellers, Accounts, History} {
		var err error
		if v, ok := e.(dbms.Vacuumer); ok {
			err = v.VacuumAnalyze(ctx, t)
		} else {
			err = e.Analyze(ctx, t)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t, err)
		}
	}
	return nil, nil
}

func addPrimaryKeys(ctx context.Context, e dbms.Engine, _ *Options, _ io.Writer) ([]string, error) {
	keys := e.(dbms.Keys)
	for _, k := range primaryKeys {
		if err := keys.AddPrimaryKey(ctx, k.table, k.column); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

func addForeignKeys(ctx context.Context, e dbms.Engine, _ *Options, _ io.Writer) ([]string, error) {
	keys := e.(dbms.Keys)
	for _, k := range foreignKeys {
		err := keys.AddForeignKey(ctx, k.table, k.column, k.ref, k.refColumn)
		if errors.Is(err, dbms.ErrNotSupported) {
			return []string{fmt.Sprintf("no foreign keys: %v", err)}, nil
		}
		if err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// BeforeRun does what pgbench does before a run unless -n: vacuum the
// branches and tellers (where the engine vacuums) and empty the history;
// with -v also vacuum the accounts. Like pgbench it goes on after an error
// (tables a custom script does not use may not exist), writing the error
// to w.
func BeforeRun(ctx context.Context, e dbms.Engine, o *Options, w io.Writer) {
	if o.NoVacuum {
		return
	}
	try := func(what string, err error) {
		if err != nil {
			fmt.Fprintf(w, "%s: %v (ignoring this error and continuing anyway)\n", what, err)
		}
	}
	v, vacuums := e.(dbms.Vacuumer)
	fmt.Fprint(w, "starting vacuum...")
	if vacuums {
		try("vacuum "+Branches, v.VacuumAnalyze(ctx, Branches))
		try("vacuum "+Tellers, v.VacuumAnalyze(ctx, Tellers))
	}
	_, err := e.Exec(ctx, "DELETE FROM "+History)
	try("empty "+History, err)
	fmt.Fprint(w, "end.\n")
	if o.VacuumAll {
		fmt.Fprintf(w, "starting vacuum %s...", Accounts)
		if vacuums {
			try("vacuum "+Accounts, v.VacuumAnalyze(ctx, Accounts))
		} else {
			try("analyze "+Accounts, e.Analyze(ctx, Accounts))
		}
		fmt.Fprint(w, "end.\n")
	}
}

// loadProgress writes pgbench's progress lines as the accounts load: one
// every 100,000 rows, or with -q one every 5 seconds.
type loadProgress struct {
	dbms.RowSource
	total, done int64
	quiet       bool
	w           io.Writer
	start, last time.Time
}

func (p *loadProgress) Next(row []any) bool {
	if !p.RowSource.Next(row) {
		return false
	}
	p.done++
	switch {
	case !p.quiet && p.done%100_000 == 0:
	case p.quiet && p.done%100 == 0 && time.Since(p.last) >= 5*time.Second:
		p.last = time.Now()
	default:
		return true
	}
	elapsed := time.Since(p.start).Seconds()
	remaining := float64(p.total-p.done) * elapsed / float64(p.done)
	fmt.Fprintf(p.w, "%d of %d tuples (%d%%) done (elapsed %.2f s, remaining %.2f s)\n", p.done, p.total, p.done*100/p.total, elapsed, remaining)
	return true
}
