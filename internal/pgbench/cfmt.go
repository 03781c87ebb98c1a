package pgbench

import (
	"fmt"
	"math"
	"strings"
)

// cf formats v as printf("%W.Pf") does in pgbench, which prints through
// PostgreSQL's own snprintf (src/port/snprintf.c): NaN is "NaN" and the
// infinities "Infinity" and "-Infinity", space-padded to the width.
// Everything else is Go's %f, which rounds the exact binary value as that
// snprintf (through the C library's) does.
func cf(width, prec int, v float64) string {
	var s string
	switch {
	case math.IsNaN(v):
		s = "NaN"
	case math.IsInf(v, 1):
		s = "Infinity"
	case math.IsInf(v, -1):
		s = "-Infinity"
	default:
		return fmt.Sprintf("%*.*f", width, prec, v)
	}
	if len(s) < width {
		s = strings.Repeat(" ", width-len(s)) + s
	}
	return s
}

// ratio is a/b as C divides doubles: 0/0 is NaN and n/0 an infinity
// (Go's constant rules aside, written out so that no platform differs).
func ratio(a, b float64) float64 {
	if b == 0 {
		switch {
		case a == 0 || math.IsNaN(a):
			return math.NaN()
		case a > 0:
			return math.Inf(1)
		default:
			return math.Inf(-1)
		}
	}
	return a / b
}

// pct is 100.0 * a / b as pgbench writes it.
func pct(a, b int64) float64 { return ratio(100.0*float64(a), float64(b)) }
