package htmlreport

import (
	"fmt"
	"html/template"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// The page of a dbgauge pgbench run: pgbench's figures first, then the
// percentiles it does not print, then its report as it printed it.
func init() {
	RegisterPage(PageKind{Name: "pgbench", Doc: (*Run).pgbenchDoc, Metrics: pgbenchMetrics})
}

func (r *Run) pgbench() *results.PgbenchResults {
	res, _ := r.Results.(*results.PgbenchResults)
	return res
}

func (r *Run) pgbenchDoc(d *Doc) error {
	p := r.pgbench()
	d.Title = "pgbench-compatible run"
	if p.Engine != "" {
		d.Title += ": " + p.Engine
	}
	d.Subtitle = fmt.Sprintf("%d clients, %d threads, scale %d, -M %s", p.Clients, p.Threads, p.Scale, p.Protocol)
	d.Summary = append(d.Summary,
		Headline{Label: "tps", Value: num(p.TPS), Note: fmt.Sprintf("%d transactions processed in %.1f s", p.Processed, p.ElapsedS)},
		Headline{Label: "p50", Value: num(p.P50MS) + " ms", Note: "residence time of the processed transactions"},
		Headline{Label: "p99", Value: num(p.P99MS) + " ms", Note: fmt.Sprintf("max %s ms", num(p.MaxMS))},
	)
	if p.Failed > 0 || p.Skipped > 0 {
		d.Summary = append(d.Summary, Headline{Label: "failed", Value: fmt.Sprint(p.Failed), Note: fmt.Sprintf("%d skipped, %d retries", p.Skipped, p.Retries)})
	}
	if p.Aborted > 0 {
		r.warn(d, fmt.Sprintf("%d clients aborted on an error: the figures are of the rest of the run (pgbench.txt says which)", p.Aborted))
	}
	r.warnIncomplete(d, p.Complete, p.Error, "what the run measured before it stopped")
	for _, w := range p.Warnings {
		r.warn(d, w)
	}
	d.Sections = append(d.Sections,
		Section{ID: "percentiles", Title: "Residence times per script and command", Table: report.PgbenchPercentiles(p)},
		Section{ID: "report", Title: "pgbench's report", HTML: template.HTML("<pre>" + template.HTMLEscapeString(p.Report) + "</pre>")},
	)
	return nil
}

// pgbenchMetrics: the run's rate and its median and 99th percentile.
func pgbenchMetrics(r *Run) []Metric {
	p := r.pgbench()
	one := func(key, unit string, v float64, better stats.Better) Metric {
		m := Metric{Key: key, Label: key, Unit: unit, Better: better}
		if p.Processed > 0 {
			m.Samples = []float64{v}
		} else {
			m.Missing = "no transaction processed"
		}
		return m
	}
	return []Metric{
		one("tps", "tx/s", p.TPS, stats.BiggerIsBetter),
		one("p50", "ms", p.P50MS, stats.SmallerIsBetter),
		one("p99", "ms", p.P99MS, stats.SmallerIsBetter),
	}
}
