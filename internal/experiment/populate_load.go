package experiment

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/progress"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// opener opens one more session on the database of the population's
// control session (the experiment's openControl on its URL).
type opener func(ctx context.Context) (dbms.Engine, error)

// tableLoader fills a population's tables: a partitioned table
// (workload.Table.FillPart) on as many sessions at once as the engine says
// are worth it (dbms.LoadSessions), the control session one of them;
// any other table on the control session. The extra sessions are opened at
// the first table that needs them and kept for the next ones.
type tableLoader struct {
	e     dbms.Engine // the control session
	open  opener      // nil: the control session only
	extra []dbms.Engine
	pr    *progress.Printer
	scale int64
}

// close ends the extra sessions.
func (l *tableLoader) close() {
	for _, e := range l.extra {
		e.Close()
	}
	l.extra = nil
}

// load fills t and checks the engine took all its rows.
func (l *tableLoader) load(ctx context.Context, t workload.Table) error {
	prog := &loadProgress{pr: l.pr, scale: l.scale, table: t.Name, total: t.Rows, start: time.Now(), sessions: 1}
	var n int64
	var err error
	if t.Partitioned() {
		n, err = l.loadParts(ctx, t, prog)
	} else {
		n, err = l.e.Load(ctx, t.Table, prog.source(t.Fill()))
	}
	if err != nil {
		return fmt.Errorf("populate %s: %w", t.Name, err)
	}
	if n != t.Rows {
		return fmt.Errorf("populate %s: engine took %d rows of %d", t.Name, n, t.Rows)
	}
	return nil
}

// loadParts loads the parts of t on up to dbms.LoadSessions sessions, each
// taking the next part when it has loaded one. The first failure stops the
// others (their ctx ends) and is the error.
func (l *tableLoader) loadParts(ctx context.Context, t workload.Table, prog *loadProgress) (int64, error) {
	sessions, err := l.sessions(ctx, min(t.Parts, dbms.LoadSessions(l.e)))
	if err != nil {
		return 0, err
	}
	prog.sessions = len(sessions)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	parts := make(chan int)
	go func() {
		defer close(parts)
		for p := 0; p < t.Parts; p++ {
			select {
			case parts <- p:
			case <-ctx.Done():
				return
			}
		}
	}()
	var (
		total    atomic.Int64
		wg       sync.WaitGroup
		once     sync.Once
		firstErr error
	)
	for _, e := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range parts {
				n, err := e.Load(ctx, t.Table, prog.source(t.FillPart(p)))
				total.Add(n)
				if err != nil {
					once.Do(func() { firstErr = fmt.Errorf("part %d of %d: %w", p+1, t.Parts, err) })
					cancel()
					return
				}
			}
		}()
	}
	wg.Wait()
	return total.Load(), firstErr
}

// sessions are n sessions to load on: the control session and n-1 extra
// ones, opened as needed (only the control session without an opener).
func (l *tableLoader) sessions(ctx context.Context, n int) ([]dbms.Engine, error) {
	if l.open == nil {
		n = 1
	}
	for len(l.extra) < n-1 {
		e, err := l.open(ctx)
		if err != nil {
			return nil, fmt.Errorf("open load session %d of %d: %w", len(l.extra)+2, n, err)
		}
		l.extra = append(l.extra, e)
	}
	return append([]dbms.Engine{l.e}, l.extra[:n-1]...), nil
}

// loadProgress counts the rows the sources of one table have handed to the
// engine and shows them, with the rate since the table began, on the
// progress printer's live line (which keeps its own pace).
type loadProgress struct {
	pr       *progress.Printer
	scale    int64
	table    string
	total    int64
	start    time.Time
	sessions int
	rows     atomic.Int64
}

// progressRows is how many rows a source counts before it adds them to the
// table's count: the shared counter is touched once per batch, not per row.
const progressRows = 4096

func (p *loadProgress) source(src dbms.RowSource) dbms.RowSource {
	return &countedSource{src: src, p: p}
}

func (p *loadProgress) add(n int64) {
	done := p.rows.Add(n)
	rate := float64(done) / max(time.Since(p.start).Seconds(), 1e-3)
	p.pr.Live("scale %d: populating %s: %d of %d rows, %.0f rows/s, %d session(s)", p.scale, p.table, done, p.total, rate, p.sessions)
}

// countedSource passes a source's rows on and counts them.
type countedSource struct {
	src dbms.RowSource
	p   *loadProgress
	n   int64
}

func (c *countedSource) Next(row []any) bool {
	if !c.src.Next(row) {
		if c.n > 0 {
			c.p.add(c.n)
			c.n = 0
		}
		return false
	}
	if c.n++; c.n == progressRows {
		c.p.add(c.n)
		c.n = 0
	}
	return true
}
