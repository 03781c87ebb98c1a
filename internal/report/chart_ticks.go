package report

import (
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
)

// readableTicks is the tick chooser of every numeric axis: it labels at
// least two ticks within the data's range [lo, hi], so that a value can be
// read off the axis however narrow the data are (gonum's choices label
// decades only on a log axis, which leaves data near 15000 with one label,
// 20000, outside them). On a log axis it labels decades when two fall
// within the data (1-2-5 of every decade when the axis spans less than
// three), else every 1..9 of a decade, else linear steps; unlabelled ticks
// mark 1..9 of every decade. A zero range
// means the axis range itself (a linear axis, whose range gonum takes from
// the data).
type readableTicks struct {
	lo, hi float64
	log    bool
}

// dataAxisTicks is the chooser for data vs on a log or linear axis: the
// range of the positive values on a log one.
func dataAxisTicks(vs []float64, log bool) readableTicks {
	t := readableTicks{lo: math.Inf(1), hi: math.Inf(-1), log: log}
	for _, v := range vs {
		if (v > 0 || !log) && !math.IsInf(v, 0) && !math.IsNaN(v) {
			t.lo, t.hi = math.Min(t.lo, v), math.Max(t.hi, v)
		}
	}
	if math.IsInf(t.lo, 0) {
		t.lo, t.hi = 0, 0
	}
	return t
}

// singleSpread is how far around a lone value the labels go (±15%): a
// value is read between two labels near it.
const singleSpread = 0.15

func (t readableTicks) Ticks(min, max float64) []plot.Tick {
	lo, hi, need := t.lo, t.hi, 2.0
	if lo == 0 && hi == 0 {
		// the data lie somewhere in the axis range (a linear axis from 0,
		// say): label it more densely, so that two labels fall on them
		lo, hi, need = min, max, 4
	}
	lo, hi = math.Max(lo, min), math.Min(hi, max)
	if hi-lo <= 1e-9*math.Max(math.Abs(lo), math.Abs(hi)) { // one value
		d := singleSpread * math.Abs(lo)
		if d == 0 {
			d = 1
		}
		lo, hi = math.Max(lo-d, min), math.Min(hi+d, max)
	}
	if t.log && min > 0 {
		sets := [][]float64{{1}, {1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}}
		if math.Log10(max/min) < 3 { // few decades: 1-2-5 fits between them
			sets = sets[1:]
		}
		for _, ms := range sets {
			if ts, n := logMantissaTicks(min, max, lo, hi, ms); n >= 2 {
				return ts
			}
		}
	}
	return linearTicks(min, max, lo, hi, need, t.log)
}

// logMantissaTicks labels m x 10^e for m in ms and marks the other 1..9;
// n counts the labels within [lo, hi].
func logMantissaTicks(min, max, lo, hi float64, ms []float64) (ts []plot.Tick, n int) {
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
		for m := 1.0; m < 10; m++ {
			v := m * math.Pow(10, e)
			if v < min*(1-1e-12) || v > max*(1+1e-12) {
				continue
			}
			tk := plot.Tick{Value: v}
			for _, lm := range ms {
				if m == lm {
					tk.Label = tickLabel(v, v)
					if v >= lo*(1-1e-12) && v <= hi*(1+1e-12) {
						n++
					}
				}
			}
			ts = append(ts, tk)
		}
	}
	return ts, n
}

// linearTicks labels multiples of the largest 1-2-5 step that puts need of
// them within [lo, hi], and outside it multiples of a coarser step, so that
// about ten labels stand on the axis (a narrow range on a padded log axis
// would otherwise carry dozens); on a linear axis half steps are marked.
func linearTicks(min, max, lo, hi, need float64, log bool) []plot.Tick {
	step := math.Pow(10, math.Ceil(math.Log10(hi-lo)))
	for i := 0; i < 60; i++ {
		if math.Floor(hi/step+1e-9)-math.Ceil(lo/step-1e-9) >= need-1 {
			break
		}
		step = smallerStep(step)
	}
	on := func(v, s float64) bool { r := v / s; return math.Abs(r-math.Round(r)) < 1e-6 }
	inData := func(v float64) bool { return v >= lo-1e-9*math.Abs(lo) && v <= hi+1e-9*math.Abs(hi) }
	minor := step / 2
	if log {
		minor = step
	}
	var vs []float64
	for k := math.Ceil(min/minor - 1e-9); k*minor <= max+1e-9*math.Abs(max) && len(vs) < 400; k++ {
		vs = append(vs, k*minor)
	}
	coarse := step
	for i := 0; i < 20; i++ {
		n := 0
		for _, v := range vs {
			if on(v, step) && (inData(v) || on(v, coarse)) {
				n++
			}
		}
		if n <= 10 {
			break
		}
		coarse = 10 * smallerStep(smallerStep(coarse)) // the 1-2-5 step above
	}
	var ts []plot.Tick
	for _, v := range vs {
		tk := plot.Tick{Value: v}
		if on(v, step) && (inData(v) || on(v, coarse)) {
			tk.Label = tickLabel(v, step)
		}
		ts = append(ts, tk)
	}
	return ts
}

// smallerStep is the 1-2-5 step below s (10 -> 5 -> 2 -> 1).
func smallerStep(s float64) float64 {
	e := math.Pow(10, math.Floor(math.Log10(s)+1e-9))
	switch m := math.Round(s / e); {
	case m >= 5:
		return 2 * e
	case m >= 2:
		return e
	default:
		return e / 2
	}
}

// tickLabel writes v with as many digits as its step needs, thousands as
// k and millions as M when the step allows (500, 1k, 1.5k, 12k; 1.5M;
// 0.002; 1050).
func tickLabel(v, step float64) string {
	if math.Abs(v) < 1e-12*math.Abs(step) {
		return "0"
	}
	unit, suffix := 1.0, ""
	switch a := math.Abs(v); {
	case a >= 1e6 && math.Abs(step) >= 1e5:
		unit, suffix = 1e6, "M"
	case a >= 1e3 && math.Abs(step) >= 100:
		unit, suffix = 1e3, "k"
	}
	dec := max(0, int(-math.Floor(math.Log10(math.Abs(step)/unit)+1e-9)))
	if dec == 0 {
		return strconv.FormatFloat(math.Round(v/unit), 'f', 0, 64) + suffix
	}
	s := strings.TrimRight(strconv.FormatFloat(v/unit, 'f', dec, 64), "0")
	return strings.TrimSuffix(s, ".") + suffix
}
