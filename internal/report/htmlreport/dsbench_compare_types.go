package htmlreport

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// dsbenchTypeMetrics are, per scale and transaction type (a workload of
// several), the type's rate and its p99 residence time, matched across
// runs by the type's name. Their repetitions are the cycles' (type_cycles:
// the type's commits over D, its p99 in the cycle); a run stored without
// them has the scale's one value.
func dsbenchTypeMetrics(s results.ScaleResult, durationS float64) (rates, p99s []Metric) {
	if len(s.Types) < 2 || durationS <= 0 {
		return nil, nil
	}
	for _, ty := range s.Types {
		rate := Metric{Key: cmpKey("type_rate|%s|%d", ty.Name, s.Scale), Label: fmt.Sprintf("rate of %s at scale %d", ty.Name, s.Scale),
			Short: fmt.Sprintf("%s tps %d", ty.Name, s.Scale), Unit: "tps", Better: stats.BiggerIsBetter}
		p99 := Metric{Key: cmpKey("type_p99|%s|%d", ty.Name, s.Scale), Label: fmt.Sprintf("p99 residence time of %s at scale %d", ty.Name, s.Scale),
			Short: fmt.Sprintf("%s p99 %d", ty.Name, s.Scale), Unit: "ms", Better: stats.SmallerIsBetter}
		for _, c := range s.TypeCycles {
			for _, ct := range c.Types {
				if ct.Name != ty.Name {
					continue
				}
				rate.Samples = append(rate.Samples, float64(ct.Count)/durationS)
				if ct.Count > 0 {
					p99.Samples = append(p99.Samples, ct.P99MS)
				}
			}
		}
		if len(rate.Samples) == 0 && len(s.Cycles) > 0 {
			rate.Samples = []float64{float64(ty.Count) / (float64(len(s.Cycles)) * durationS)}
		}
		if len(p99.Samples) == 0 && ty.Count > 0 {
			p99.Samples = []float64{ty.P99MS}
		}
		if len(rate.Samples) == 0 {
			rate.Missing = "no cycle"
		}
		if len(p99.Samples) == 0 {
			p99.Missing = "none committed"
		}
		rates, p99s = append(rates, rate), append(p99s, p99)
	}
	return rates, p99s
}
