package experiment

import (
	"bytes"
	"context"
	"fmt"
	"os"

	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/results"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// driverConfig is the load of one scale: the clients, the cycles, and per
// thread an Op that runs the workload's transaction in the chosen form.
func (r *dsbenchRun) driverConfig(x int64, between func(context.Context, int, driver.CycleResult) error) (driver.Config, func() error) {
	p := r.plan
	cfg := driver.Config{
		Nodes: p.Nodes, Threads: p.Threads, Connections: p.Conns,
		Cycles: p.Cycles, Duration: p.Duration,
		Retry: p.Retry, Reconnect: p.Reconnect, BackoffCap: p.BackoffCap, GiveUp: p.GiveUp, Rate: p.Rate,
		Seed:          scaleSeed(p.Seed, x),
		Targets:       r.spread.count(),
		Open:          r.clients.opener(r.url, r.spread, p.Conns),
		Setup:         r.clients.setup,
		NewOp:         r.clients.newOp,
		Types:         r.clients.typeNames(),
		Statements:    r.clients.statementNames(r.res.Engine),
		Wait:          r.clients.waits(),
		BetweenCycles: between,
		Progress: func(pg driver.Progress) {
			r.pr.Live("scale %d cycle %d/%d %4.0f%%  %8.1f tps  %d committed  %d failed", x, pg.Cycle, pg.Cycles,
				100*pg.Elapsed.Seconds()/pg.Duration.Seconds(), pg.TPS, pg.Committed, pg.Failed)
			r.liveRate(x, pg)
		},
	}
	closeRaw := func() error { return nil }
	if p.RawTimes {
		f, err := os.Create(r.run.Path(fmt.Sprintf("raw_times_scale%d.txt", x)))
		if err == nil {
			cfg.RawTimes, closeRaw = f, f.Close
		} else {
			r.warn("raw times not written: " + err.Error())
		}
	}
	return cfg, closeRaw
}

// writeHistogramLog writes the residence times of every cycle of a scale as
// an HdrHistogram interval log (the interchange format).
func writeHistogramLog(run *results.Run, name string, d *driver.Result) error {
	var b bytes.Buffer
	lw := hdr.NewHistogramLogWriter(&b)
	if len(d.Cycles) == 0 {
		return nil
	}
	base := d.Cycles[0].Start
	lw.OutputComment("dbgauge residence times, microseconds, one interval per cycle")
	lw.OutputLogFormatVersion()
	lw.OutputStartTime(base.UnixMilli())
	lw.OutputLegend()
	lw.SetBaseTime(base.UnixMilli())
	for _, c := range d.Cycles {
		if c.Residence == nil {
			continue
		}
		if err := lw.OutputIntervalHistogram(c.Interval()); err != nil {
			return err
		}
	}
	return run.WriteFile(name, b.Bytes())
}
