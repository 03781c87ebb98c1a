package expr

import "math"

// pgbench's distributions over a PRNG, each drawing exactly what pgbench 15
// draws so a seed gives pgbench's numbers. The callers check the arguments
// (Eval with pgbench's messages); these assume lo <= hi, hi-lo+1 fits in
// int64 and a valid parameter.

// Parameter bounds of pgbench's random functions.
const (
	MinGaussianParam = 2.0
	MinZipfianParam  = 1.001
	MaxZipfianParam  = 1000.0
)

// Rand is uniform in [lo, hi] (random, and pgbench's own choices such as
// which script runs next).
func (r *PRNG) Rand(lo, hi int64) int64 {
	return lo + int64(r.Uint64Range(0, uint64(hi-lo)))
}

// RandExponential is random_exponential: truncated exponential with density
// at hi e^-param times that at lo.
func (r *PRNG) RandExponential(lo, hi int64, param float64) int64 {
	cut := libmExp(-param)
	uniform := 1.0 - r.Double() // in (0, 1]
	// float64() keeps the compiler from fusing into one FMA, which C does not.
	x := -libmLog(cut+float64((1.0-cut)*uniform)) / param
	return lo + int64(float64(hi-lo+1)*x)
}

// RandGaussian is random_gaussian: a normal variate (Box-Muller, basic form)
// redrawn until within param standard deviations, mapped onto [lo, hi].
func (r *PRNG) RandGaussian(lo, hi int64, param float64) int64 {
	var stdev float64
	for {
		u1 := 1.0 - r.Double()
		u2 := 1.0 - r.Double()
		stdev = math.Sqrt(-2.0*libmLog(u1)) * libmSin(2.0*math.Pi*u2)
		if stdev >= -param && stdev < param {
			break
		}
	}
	x := (stdev + param) / (param * 2.0)
	return lo + int64(float64(hi-lo+1)*x)
}

// RandZipfian is random_zipfian: Devroye's rejection method ("Non-Uniform
// Random Variate Generation", p. 550-551) for s > 1.
func (r *PRNG) RandZipfian(lo, hi int64, s float64) int64 {
	return lo - 1 + r.zipfian(hi-lo+1, s)
}

func (r *PRNG) zipfian(n int64, s float64) int64 {
	b := libmPow(2.0, s-1.0)
	if n <= 1 {
		return 1
	}
	for {
		u := r.Double()
		v := r.Double()
		x := math.Floor(libmPow(u, -1.0/(s-1.0)))
		t := libmPow(1.0+1.0/x, s-1.0)
		if v*x*(t-1.0)/(b-1.0) <= t/b && x <= float64(n) {
			return int64(x)
		}
	}
}

// Poisson is a value whose mean over many draws is center, rounded to an
// integer (pgbench's schedule under --rate).
func (r *PRNG) Poisson(center float64) int64 {
	uniform := 1.0 - r.Double()
	return int64(float64(-libmLog(uniform)*center) + 0.5)
}
