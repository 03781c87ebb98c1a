package htmlreport

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/results"
)

// sizeText is a memory or page size as bytesLabel writes it, without a
// ".0" that makes 16 KiB look measured rather than set.
func sizeText(b int64) string { return strings.Replace(bytesLabel(b), ".0 ", " ", 1) }

// partValue writes a part's variable value: "p=4", or a size in bytes.
func partValue(p *results.SpeedupPart, x int64) string {
	if p.Variable == "parallelism" {
		return "p=" + strconv.FormatInt(x, 10)
	}
	return sizeText(x)
}

// speedupWarnings: an incomplete run and its own warnings; per part the
// points that failed, were not measured or returned the wrong number of
// rows; for the speedup, a machine with fewer CPUs (cpus, from the
// manifest; 0 when unknown) than the largest p, and points whose plan ran
// without the parallel workers p asks for.
func speedupWarnings(s *results.SpeedupResults, cpus int) []string {
	w := runStateWarnings(s.Complete, s.Error, s.Warnings)
	for _, p := range []*results.SpeedupPart{s.Speedup, s.Memory, s.PageSize} {
		if p == nil || !p.Applicable {
			continue
		}
		var failed, missing, wrong []string
		for _, c := range p.Curves {
			for _, x := range p.Values {
				where := curveLabel(c) + " at " + partValue(p, x)
				var pt *results.SpeedupPoint
				for i := range c.Points {
					if c.Points[i].X == x {
						pt = &c.Points[i]
					}
				}
				switch {
				case pt == nil || pt.Error == "" && len(pt.TimesMS) == 0:
					missing = append(missing, where)
				case pt.Error != "":
					failed = append(failed, where+" ("+firstLine(pt.Error)+")")
				case pt.Rows != c.Expected:
					wrong = append(wrong, fmt.Sprintf("%s returned %d rows, expected %d", where, pt.Rows, c.Expected))
				}
			}
		}
		name := partName(p)
		if len(failed) > 0 {
			w = append(w, fmt.Sprintf("%s: %s failed: %s.", name, countNoun(len(failed), "point", "points"), listText(failed, 4)))
		}
		if len(missing) > 0 {
			w = append(w, fmt.Sprintf("%s: %s not measured: %s.", name, countNoun(len(missing), "point", "points"), listText(missing, 4)))
		}
		if len(wrong) > 0 {
			w = append(w, fmt.Sprintf("%s: cardinality mismatch: %s.", name, listText(wrong, 4)))
		}
	}
	if p := s.Speedup; p != nil && p.Applicable {
		if _, top := partRange(p); cpus > 0 && top > int64(cpus) {
			w = append(w, fmt.Sprintf("Caution: the speedup was measured up to p=%d on a machine with %s: beyond p=%d the workers share CPUs, so that part of the curve cannot show how the engine scales.",
				top, countNoun(cpus, "CPU", "CPUs"), cpus))
		}
		w = append(w, workerWarnings(p)...)
	}
	return w
}

// workerWarnings are the points above p=1 where the engine said (in the
// warm-up's EXPLAIN ANALYZE) that it planned no parallel worker, or
// launched fewer than it planned: their speedup does not measure p.
func workerWarnings(p *results.SpeedupPart) []string {
	var serial, short []string
	for _, c := range p.Curves {
		for _, x := range p.Values {
			pt := curvePoint(c, x)
			if x <= 1 || pt == nil || pt.WorkersPlanned < 0 {
				continue
			}
			switch {
			case pt.WorkersPlanned == 0:
				serial = append(serial, curveLabel(c)+" at p="+strconv.FormatInt(x, 10))
			case pt.WorkersLaunched >= 0 && pt.WorkersLaunched < pt.WorkersPlanned:
				short = append(short, fmt.Sprintf("%s at p=%d (%d of %d)", curveLabel(c), x, pt.WorkersLaunched, pt.WorkersPlanned))
			}
		}
	}
	var w []string
	if len(serial) > 0 {
		w = append(w, fmt.Sprintf("The plan used no parallel worker for %s: %s; the speedup there is not the engine's parallelism.",
			countNoun(len(serial), "point", "points"), listText(serial, 4)))
	}
	if len(short) > 0 {
		w = append(w, fmt.Sprintf("Fewer parallel workers launched than planned (launched of planned) for %s: %s.", countNoun(len(short), "point", "points"), listText(short, 4)))
	}
	return w
}
