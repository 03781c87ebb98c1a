package expr

import (
	"fmt"
	"math"
)

// apply computes a function of evaluated arguments, none NULL except for IS
// and debug().
func apply(ctx *Context, f fn, args []Value) (Value, error) {
	switch f {
	case fAdd, fSub, fMul, fDiv, fMod, fEq, fNe, fLe, fLt:
		return arith(f, args[0], args[1])
	case fBitAnd, fBitOr, fBitXor, fShl, fShr:
		return bitwise(f, args[0], args[1])
	case fNot:
		b, err := args[0].AsBool()
		if err != nil {
			return Value{}, err
		}
		return Bool(!b), nil
	case fIs:
		// pgbench compares the kinds and, for booleans, the truth; its right
		// side is always a NULL or boolean constant.
		a, b := args[0], args[1]
		return Bool(a.kind == b.kind && (a.kind != KindBool || a.b == b.b)), nil
	case fPi:
		return Double(math.Pi), nil
	case fAbs:
		return abs(args[0])
	case fDebug:
		writeDebug(ctx, args[0])
		return args[0], nil
	case fDouble, fSqrt, fLn, fExp:
		d, err := args[0].AsDouble()
		if err != nil {
			return Value{}, err
		}
		switch f {
		case fSqrt:
			d = math.Sqrt(d)
		case fLn:
			d = libmLog(d)
		case fExp:
			d = libmExp(d)
		}
		return Double(d), nil
	case fInt:
		i, err := args[0].AsInt()
		if err != nil {
			return Value{}, err
		}
		return Int(i), nil
	case fLeast, fGreatest:
		return extremum(f == fLeast, args)
	case fRandom, fRandomExponential, fRandomGaussian, fRandomZipfian:
		return random(ctx, f, args)
	case fPow:
		x, y, err := doubles(args[0], args[1])
		if err != nil {
			return Value{}, err
		}
		return Double(libmPow(x, y)), nil
	case fHashMurmur2, fHashFNV1a:
		val, seed, err := ints(args[0], args[1])
		if err != nil {
			return Value{}, err
		}
		if f == fHashMurmur2 {
			return Int(HashMurmur2(val, uint64(seed))), nil
		}
		return Int(HashFNV1a(val, uint64(seed))), nil
	case fPermute:
		return permute(args)
	}
	return Value{}, fmt.Errorf("unknown function %d", f)
}

// arith is the overloaded arithmetic and comparison operators: in doubles
// when either operand is a double (except %), else in int64 where overflow
// is an error.
func arith(f fn, l, r Value) (Value, error) {
	if (l.kind == KindDouble || r.kind == KindDouble) && f != fMod {
		ld, rd, err := doubles(l, r)
		if err != nil {
			return Value{}, err
		}
		switch f {
		case fAdd:
			return Double(ld + rd), nil
		case fSub:
			return Double(ld - rd), nil
		case fMul:
			return Double(ld * rd), nil
		case fDiv:
			return Double(ld / rd), nil
		case fEq:
			return Bool(ld == rd), nil
		case fNe:
			return Bool(ld != rd), nil
		case fLe:
			return Bool(ld <= rd), nil
		}
		return Bool(ld < rd), nil
	}
	li, ri, err := ints(l, r)
	if err != nil {
		return Value{}, err
	}
	switch f {
	case fAdd:
		s := li + ri
		if (s > li) != (ri > 0) {
			return Value{}, fmt.Errorf("bigint add out of range")
		}
		return Int(s), nil
	case fSub:
		d := li - ri
		if (d < li) != (ri > 0) {
			return Value{}, fmt.Errorf("bigint sub out of range")
		}
		return Int(d), nil
	case fMul:
		p := li * ri
		if li != 0 && (p/li != ri || (li == -1 && ri == math.MinInt64) || (ri == -1 && li == math.MinInt64)) {
			return Value{}, fmt.Errorf("bigint mul out of range")
		}
		return Int(p), nil
	case fEq:
		return Bool(li == ri), nil
	case fNe:
		return Bool(li != ri), nil
	case fLe:
		return Bool(li <= ri), nil
	case fLt:
		return Bool(li < ri), nil
	}
	// / and %
	if ri == 0 {
		return Value{}, fmt.Errorf("division by zero")
	}
	if ri == -1 {
		if f == fMod {
			return Int(0), nil
		}
		if li == math.MinInt64 {
			return Value{}, fmt.Errorf("bigint div out of range")
		}
		return Int(-li), nil
	}
	if f == fDiv {
		return Int(li / ri), nil
	}
	return Int(li % ri), nil
}

// bitwise is & | # << >> on int64. A shift count is taken modulo 64, as the
// x86-64 shift instructions pgbench's C compiles to take it.
func bitwise(f fn, l, r Value) (Value, error) {
	li, ri, err := ints(l, r)
	if err != nil {
		return Value{}, err
	}
	switch f {
	case fBitAnd:
		return Int(li & ri), nil
	case fBitOr:
		return Int(li | ri), nil
	case fBitXor:
		return Int(li ^ ri), nil
	case fShl:
		return Int(li << (uint64(ri) & 63)), nil
	}
	return Int(li >> (uint64(ri) & 63)), nil
}

// abs keeps the kind; abs of -2^63 is -2^63, as in pgbench.
func abs(v Value) (Value, error) {
	switch v.kind {
	case KindInt:
		if v.i < 0 {
			return Int(-v.i), nil
		}
		return v, nil
	case KindDouble:
		if v.f < 0 {
			return Double(-v.f), nil
		}
		return v, nil
	case KindBool:
		// pgbench reads a boolean's storage as a double here: the byte of
		// true is the smallest subnormal, false is zero.
		if v.b {
			return Double(math.Float64frombits(1)), nil
		}
		return Double(0), nil
	}
	return Value{}, fmt.Errorf("cannot coerce %s to double", v.kind)
}

// extremum is least and greatest: doubles if any argument is one, else
// ints. Comparisons are C's (x < y ? x : y), which decide NaNs.
func extremum(least bool, args []Value) (Value, error) {
	anyDouble := false
	for _, a := range args {
		anyDouble = anyDouble || a.kind == KindDouble
	}
	if anyDouble {
		m, err := args[0].AsDouble()
		if err != nil {
			return Value{}, err
		}
		for _, a := range args[1:] {
			d, err := a.AsDouble()
			if err != nil {
				return Value{}, err
			}
			if least && !(m < d) || !least && !(m > d) {
				m = d
			}
		}
		return Double(m), nil
	}
	m, err := args[0].AsInt()
	if err != nil {
		return Value{}, err
	}
	for _, a := range args[1:] {
		i, err := a.AsInt()
		if err != nil {
			return Value{}, err
		}
		if least && i < m || !least && i > m {
			m = i
		}
	}
	return Int(m), nil
}

// random is random, random_exponential, random_gaussian and random_zipfian
// with pgbench's checks and messages.
func random(ctx *Context, f fn, args []Value) (Value, error) {
	lo, hi, err := ints(args[0], args[1])
	if err != nil {
		return Value{}, err
	}
	if lo > hi {
		return Value{}, fmt.Errorf("empty range given to random")
	}
	if d := hi - lo; d < 0 || d == math.MaxInt64 {
		return Value{}, fmt.Errorf("random range is too large")
	}
	if ctx.Rand == nil {
		return Value{}, ErrNoRand
	}
	if f == fRandom {
		return Int(ctx.Rand.Rand(lo, hi)), nil
	}
	p, err := args[2].AsDouble()
	if err != nil {
		return Value{}, err
	}
	switch f {
	case fRandomGaussian:
		if p < MinGaussianParam {
			return Value{}, fmt.Errorf("gaussian parameter must be at least %s (not %s)", formatF6(MinGaussianParam), formatF6(p))
		}
		return Int(ctx.Rand.RandGaussian(lo, hi, p)), nil
	case fRandomZipfian:
		if p < MinZipfianParam || p > MaxZipfianParam {
			return Value{}, fmt.Errorf("zipfian parameter must be in range [%.3f, %.0f] (not %s)", MinZipfianParam, MaxZipfianParam, formatF6(p))
		}
		return Int(ctx.Rand.RandZipfian(lo, hi, p)), nil
	}
	if p <= 0 {
		return Value{}, fmt.Errorf("exponential parameter must be greater than zero (not %s)", formatF6(p))
	}
	return Int(ctx.Rand.RandExponential(lo, hi, p)), nil
}

func permute(args []Value) (Value, error) {
	var x [3]int64
	for i := range x {
		v, err := args[i].AsInt()
		if err != nil {
			return Value{}, err
		}
		x[i] = v
	}
	if x[1] <= 0 {
		return Value{}, fmt.Errorf("permute size parameter must be greater than zero")
	}
	return Int(Permute(x[0], x[1], x[2])), nil
}

// ints and doubles coerce two operands, the left one first (its error is
// the one reported).
func ints(l, r Value) (int64, int64, error) {
	li, err := l.AsInt()
	if err != nil {
		return 0, 0, err
	}
	ri, err := r.AsInt()
	return li, ri, err
}

func doubles(l, r Value) (float64, float64, error) {
	ld, err := l.AsDouble()
	if err != nil {
		return 0, 0, err
	}
	rd, err := r.AsDouble()
	return ld, rd, err
}
