package expr

import "strings"

// fn is a function of the evaluator: the operators are functions too, as in
// pgbench, so the tree has one kind of inner node.
type fn uint8

const (
	fAdd fn = iota
	fSub
	fMul
	fDiv
	fMod
	fAbs
	fLeast
	fGreatest
	fDebug
	fPi
	fSqrt
	fLn
	fExp
	fInt
	fDouble
	fRandom
	fRandomGaussian
	fRandomExponential
	fRandomZipfian
	fPow
	fAnd
	fOr
	fNot
	fBitAnd
	fBitOr
	fBitXor
	fShl
	fShr
	fEq
	fNe
	fLe
	fLt
	fIs
	fCase
	fHashMurmur2
	fHashFNV1a
	fPermute
)

// How many arguments a function takes, beyond a fixed count.
const (
	argsAtLeastOne = -1 // least, greatest
	argsHash       = -3 // one, and an optional seed
	argsPermute    = -4 // two, and an optional seed
)

type fnInfo struct {
	name  string
	nargs int
	f     fn
}

// callable are the functions a script may call by name, with pgbench's
// argument counts. The name in a message is the one listed here.
var callable = []fnInfo{
	{"mod", 2, fMod}, // also what % is parsed to
	{"abs", 1, fAbs},
	{"least", argsAtLeastOne, fLeast},
	{"greatest", argsAtLeastOne, fGreatest},
	{"debug", 1, fDebug},
	{"pi", 0, fPi},
	{"sqrt", 1, fSqrt},
	{"ln", 1, fLn},
	{"exp", 1, fExp},
	{"int", 1, fInt},
	{"double", 1, fDouble},
	{"random", 2, fRandom},
	{"random_gaussian", 3, fRandomGaussian},
	{"random_exponential", 3, fRandomExponential},
	{"random_zipfian", 3, fRandomZipfian},
	{"pow", 2, fPow},
	{"power", 2, fPow},
	{"hash", argsHash, fHashMurmur2},
	{"hash_murmur2", argsHash, fHashMurmur2},
	{"hash_fnv1a", argsHash, fHashFNV1a},
	{"permute", argsPermute, fPermute},
}

func findFunc(name string) (fnInfo, bool) {
	for _, f := range callable {
		if strings.EqualFold(f.name, name) {
			return f, true
		}
	}
	return fnInfo{}, false
}

// FunctionNames are the functions a script may call, in pgbench's order.
func FunctionNames() []string {
	names := make([]string, len(callable))
	for i, f := range callable {
		names[i] = f.name
	}
	return names
}
