//go:build cgo

package expr

// pgbench's exp, ln, pow and its random distributions go through the C
// library's exp, log, pow and sin, which round differently from Go's math
// package in the last bits (pow in about half of all cases, by up to a few
// units in the last place). Calling the same C functions makes the values
// pgbench's exactly, printed to 15 digits or truncated to an integer.

/*
#cgo LDFLAGS: -lm
#include <math.h>
*/
import "C"

// LibmExact says exp, ln, pow and the random distributions use the C
// library's functions, as pgbench does, so their values are bit for bit
// pgbench's (false in a build without cgo).
const LibmExact = true

func libmExp(x float64) float64    { return float64(C.exp(C.double(x))) }
func libmLog(x float64) float64    { return float64(C.log(C.double(x))) }
func libmPow(x, y float64) float64 { return float64(C.pow(C.double(x), C.double(y))) }
func libmSin(x float64) float64    { return float64(C.sin(C.double(x))) }
