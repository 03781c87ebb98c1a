//go:build !cgo

package expr

import "math"

// Without cgo, Go's own functions: the same to within a few units in the
// last place, so a rare value differs from pgbench's (see libm_cgo.go).

// LibmExact: see libm_cgo.go.
const LibmExact = false

func libmExp(x float64) float64    { return math.Exp(x) }
func libmLog(x float64) float64    { return math.Log(x) }
func libmPow(x, y float64) float64 { return math.Pow(x, y) }
func libmSin(x float64) float64    { return math.Sin(x) }
