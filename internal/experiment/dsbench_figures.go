package experiment

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// figures records a workload's own figures after a cycle (workload.Figurer)
// in the scale's result: each figure's value of the cycle is appended, its
// scale value and bounds replaced by the latest, and a figure out of its
// bounds is told (an audit of the inputs: the run is not inconsistent, its
// inputs were not what the workload promises).
func (r *dsbenchRun) figures(sr *results.ScaleResult, x int64, cycle int, fs []workload.Figure) {
	for _, f := range fs {
		i := 0
		for i < len(sr.Figures) && sr.Figures[i].Name != f.Name {
			i++
		}
		if i == len(sr.Figures) {
			sr.Figures = append(sr.Figures, results.WorkloadFigure{Name: f.Name, Unit: f.Unit})
		}
		wf := &sr.Figures[i]
		wf.Cycles = append(wf.Cycles, f.Cycle)
		wf.Scale, wf.Low, wf.High, wf.Pass = f.Scale, f.Low, f.High, nil
		if f.Low != nil || f.High != nil {
			pass := f.Pass()
			wf.Pass = &pass
			if !pass {
				r.warn(fmt.Sprintf("scale %d, cycle %d: %s is %s, outside %s", x, cycle, f.Name, figureValue(f.Scale, f.Unit), figureBounds(f)))
			}
		}
	}
}

func figureValue(v float64, unit string) string {
	if unit == "" {
		return fmt.Sprintf("%.4g", v)
	}
	return fmt.Sprintf("%.4g %s", v, unit)
}

// figureBounds says an audited figure's bounds ("0.9 to 1.1 %", "at most 1 %").
func figureBounds(f workload.Figure) string {
	switch {
	case f.Low != nil && f.High != nil:
		return fmt.Sprintf("%.4g to %s", *f.Low, figureValue(*f.High, f.Unit))
	case f.High != nil:
		return "at most " + figureValue(*f.High, f.Unit)
	default:
		return "at least " + figureValue(*f.Low, f.Unit)
	}
}
