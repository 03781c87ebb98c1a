package experiment

import (
	"fmt"
	"time"

	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// limits judges each type's residence times over the scale against the
// limit the workload gives it (workload.Limit) and records the verdict
// beside the type's figures; a type over its limit is told. The
// percentile is read from the type's whole histogram (every node's, merged),
// not from the rounded percentiles of the table. A type that committed
// nothing has no verdict.
func (r *dsbenchRun) limits(sr *results.ScaleResult, x int64, d *driver.Result) {
	types := r.w.Types()
	for i := range sr.Types {
		if i >= len(types) || i >= len(d.Types) || types[i].Limit == (workload.Limit{}) {
			continue
		}
		h, l := d.Types[i].Residence, types[i].Limit
		if h == nil || h.TotalCount() == 0 {
			continue
		}
		v := time.Duration(h.ValueAtQuantile(l.Percentile)) * time.Microsecond
		tl := &results.TypeLimit{Percentile: l.Percentile, MaxMS: ms(l.Max), ValueMS: ms(v), Pass: v <= l.Max}
		sr.Types[i].Limit = tl
		if !tl.Pass {
			r.warn(fmt.Sprintf("scale %d: %s's %gth percentile residence time %v is above its limit of %v", x, sr.Types[i].Name, l.Percentile, v, l.Max))
		}
	}
}
