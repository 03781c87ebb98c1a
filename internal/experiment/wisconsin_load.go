package experiment

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/results"
	w "github.com/dbgauge/dbgauge/internal/workload/wisconsin"
)

// load (re)creates and fills the four relations of base size n in unique2
// order (the heap organisation) and returns what the queries need of them.
func (r *wisconsinRun) load(ctx context.Context, n int64) (*w.Data, error) {
	return loadWisconsin(ctx, r.e, n, r.pr, func(lr results.LoadResult) {
		r.res.Loads = append(r.res.Loads, lr)
		r.run.Journal().Append(lr)
	})
}

// loadWisconsin loads the four relations of base size n into e, checks
// that the generator emitted whole permutations, and hands every load's
// result to loaded (to keep and journal).
func loadWisconsin(ctx context.Context, e dbms.Engine, n int64, pr *progress.Printer, loaded func(results.LoadResult)) (*w.Data, error) {
	data := &w.Data{N: n}
	for _, rel := range w.Relations {
		lr, cen, err := loadRelation(ctx, e, rel, n, pr)
		if err != nil {
			return nil, err
		}
		loaded(lr)
		switch rel {
		case w.Tenktup1:
			if err := cen.CheckFull(n); err != nil {
				return nil, fmt.Errorf("generated %s: %w", lr.Table, err)
			}
			data.A = cen
		case w.Onektup:
			if err := cen.CheckFull(n / 10); err != nil {
				return nil, fmt.Errorf("generated %s: %w", lr.Table, err)
			}
			data.C = cen
		case w.Bprime:
			data.Bprime = cen
		}
	}
	return data, nil
}

// organizeAll gives every relation of base size n the organisation org.
func organizeAll(ctx context.Context, e dbms.Engine, n int64, org w.Org) error {
	for _, rel := range w.Relations {
		if err := organizeTable(ctx, e, w.TableName(rel, n), org); err != nil {
			return err
		}
	}
	return nil
}

// WisconsinLoad loads the given relations of base size n and nothing else
// (dbgauge load; the bench/ scripts compare it with the engines' loaders).
func WisconsinLoad(ctx context.Context, e dbms.Engine, n int64, rels []w.Relation, run *results.Run, pr *progress.Printer) ([]results.LoadResult, error) {
	var out []results.LoadResult
	for _, rel := range rels {
		lr, _, err := loadRelation(ctx, e, rel, n, pr)
		if err != nil {
			return out, err
		}
		out = append(out, lr)
		run.Journal().Append(lr)
	}
	return out, nil
}

// LoadPlan is what `dbgauge load` loads: the relations of every size.
type LoadPlan struct {
	Sizes     []int64
	Relations []w.Relation
}

// RunLoad opens the engine, writes the run directory's manifest, loads
// the relations of every size, journaling each load, and writes
// results.json and the finished manifest. The results are nil when
// nothing was written (the engine could not be opened).
func RunLoad(ctx context.Context, s Setup, plan LoadPlan, pr *progress.Printer) (*results.LoadResults, error) {
	o, err := open(ctx, s, "load", 0, func(abs string) string { return dbms.DefaultURL(filepath.Join(abs, "load.db")) }, noCheck)
	if err != nil {
		return nil, err
	}
	defer o.close()
	res := &results.LoadResults{
		Header: results.Header{Experiment: "load", Engine: o.man.Engine.Engine, EngineVersion: o.man.Engine.Version},
		Sizes:  plan.Sizes,
	}
	for _, rel := range plan.Relations {
		res.Relations = append(res.Relations, rel.String())
	}
	var runErr error
	for _, n := range plan.Sizes {
		var lrs []results.LoadResult
		lrs, runErr = WisconsinLoad(ctx, o.e, n, plan.Relations, o.run, pr)
		res.Loads = append(res.Loads, lrs...)
		if runErr != nil {
			break
		}
	}
	runErr = runOutcome(ctx, o.run, runErr, &res.Complete, &res.Error)
	werr := writeOutputs(o.run, res)
	now := time.Now().UTC()
	o.man.Finished = &now
	runErr = andErr(runErr, errors.Join(werr, o.run.WriteJSON(results.ManifestFile, o.man)))
	return res, runErr
}

// loadRelation drops, creates, loads and analyzes one relation.
func loadRelation(ctx context.Context, e dbms.Engine, rel w.Relation, n int64, pr *progress.Printer) (results.LoadResult, *w.Census, error) {
	t := dbms.Table{Name: w.TableName(rel, n), Columns: w.Columns()}
	if err := e.DropTable(ctx, t.Name); err != nil {
		return results.LoadResult{}, nil, fmt.Errorf("drop %s: %w", t.Name, err)
	}
	if err := e.CreateTable(ctx, t); err != nil {
		return results.LoadResult{}, nil, fmt.Errorf("create %s: %w", t.Name, err)
	}
	rows, err := w.NewRows(rel, n)
	if err != nil {
		return results.LoadResult{}, nil, err
	}
	card := w.Cardinality(rel, n)
	rows.OnProgress(func(i int64) {
		pr.Live("N=%d load %s: %d/%d rows (%.0f%%)", n, t.Name, i, card, 100*float64(i)/float64(card))
	})
	sampled := &sampledSource{src: rows}
	src := newPipelined(sampled)
	start := time.Now()
	loaded, err := e.Load(ctx, t, src)
	src.stop()
	secs := time.Since(start).Seconds()
	if err != nil {
		return results.LoadResult{}, nil, fmt.Errorf("load %s: %w", t.Name, err)
	}
	if loaded != card {
		return results.LoadResult{}, nil, fmt.Errorf("load %s: engine took %d rows, generated %d", t.Name, loaded, card)
	}
	if err := e.Analyze(ctx, t.Name); err != nil {
		return results.LoadResult{}, nil, fmt.Errorf("analyze %s: %w", t.Name, err)
	}
	lr := results.LoadResult{Relation: rel.String(), Table: t.Name, Size: n, Rows: loaded, Seconds: secs, RowsPerS: float64(loaded) / secs, GenerationSeconds: sampled.estimate().Seconds()}
	pr.Line("N=%-9d loaded %-20s %10d rows in %7.2f s (%9.0f rows/s; generator busy %.0f%% of it)", n, t.Name, loaded, secs, lr.RowsPerS, 100*lr.GenerationSeconds/secs)
	return lr, rows.Census(), nil
}

// sampledSource times one call of Next in 64 and extrapolates, so the cost
// of generation inside a load is known without timing every row.
type sampledSource struct {
	src   dbms.RowSource
	calls int64
	spent time.Duration
}

func (s *sampledSource) Next(row []any) bool {
	s.calls++
	if s.calls%64 != 0 {
		return s.src.Next(row)
	}
	t := time.Now()
	ok := s.src.Next(row)
	s.spent += time.Since(t)
	return ok
}

func (s *sampledSource) estimate() time.Duration { return s.spent * 64 }

// pipelined runs the generator in its own goroutine, a few batches ahead of
// the engine's loader, so that generation overlaps the load instead of adding
// to it (the load is then as fast as the slower of the two).
type pipelined struct {
	batches chan [][]any
	free    chan [][]any
	done    chan struct{}
	cur     [][]any
	pos     int
}

const pipeBatch, pipeDepth = 1024, 4

func newPipelined(src dbms.RowSource) *pipelined {
	p := &pipelined{batches: make(chan [][]any, pipeDepth), free: make(chan [][]any, pipeDepth+2), done: make(chan struct{})}
	for i := 0; i < pipeDepth+2; i++ {
		b := make([][]any, pipeBatch)
		for j := range b {
			b[j] = make([]any, len(w.Attributes))
		}
		p.free <- b
	}
	go func() {
		defer close(p.batches)
		for {
			var b [][]any
			select {
			case b = <-p.free:
			case <-p.done:
				return
			}
			n := 0
			for n < len(b) && src.Next(b[n]) {
				n++
			}
			if n > 0 {
				select {
				case p.batches <- b[:n]:
				case <-p.done:
					return
				}
			}
			if n < len(b) {
				return
			}
		}
	}()
	return p
}

// Next copies the next generated row into row.
func (p *pipelined) Next(row []any) bool {
	if p.pos >= len(p.cur) {
		if p.cur != nil {
			p.free <- p.cur[:cap(p.cur)]
		}
		b, ok := <-p.batches
		if !ok {
			p.cur = nil
			return false
		}
		p.cur, p.pos = b, 0
	}
	copy(row, p.cur[p.pos])
	p.pos++
	return true
}

// stop ends the generator goroutine if the load ended early.
func (p *pipelined) stop() { close(p.done) }
