package htmlreport

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// What dbgauge compare takes from a speedup run.

// speedupMetrics: per part (parallelism, memory, page size), query and
// value of the part's variable, the query's time.
func speedupMetrics(r *Run) []Metric {
	var out []Metric
	for _, part := range []*results.SpeedupPart{r.speedup().Speedup, r.speedup().Memory, r.speedup().PageSize} {
		if part == nil || !part.Applicable {
			continue
		}
		chart := &LineChart{Name: "compare_" + part.Variable, Title: "time against " + cmpSpeedupAxis(part.Variable) + " (median; bars: fastest..slowest repetition)",
			XLabel: cmpSpeedupAxis(part.Variable), YLabel: "time [ms]",
			Reading: "Each query's time against " + cmpSpeedupAxis(part.Variable) + ", one curve per run and query: a lower curve is faster at that setting."}
		for _, c := range part.Curves {
			for _, p := range c.Points {
				val := cmpSpeedupValue(part.Variable, p.X)
				x := Metric{Key: cmpKey("%s|%d|%s|%s|%s|%d", part.Variable, c.Query, c.Class, c.Org, c.Attribute, p.X),
					Label: curveLabel(c) + ", " + c.Attribute + ", " + val, Short: fmt.Sprintf("Q%d %s", c.Query, val),
					Unit: "ms", Better: stats.SmallerIsBetter, Line: &LinePlace{Chart: chart, Curve: curveLabel(c), X: float64(p.X)}}
				if p.Error == "" && len(p.TimesMS) > 0 {
					x.Samples = p.TimesMS
				} else {
					x.Missing = "ERROR"
				}
				out = append(out, x)
			}
		}
	}
	return out
}

func cmpSpeedupAxis(variable string) string {
	switch variable {
	case "memory":
		return "join memory [bytes]"
	case "page_size":
		return "page size [bytes]"
	}
	return "parallelism p"
}

func cmpSpeedupValue(variable string, x int64) string {
	switch variable {
	case "memory":
		return "memory " + bytesLabel(x)
	case "page_size":
		return "page " + bytesLabel(x)
	}
	return fmt.Sprintf("p=%d", x)
}
