package wisconsin

import "strings"

// StringLen is the width of the three string attributes (208-byte tuples).
const StringLen = 52

var xs = strings.Repeat("x", StringLen)

// Str is str(v) of docs/wisconsin.md §3: v in base 26 (A=0..Z=25) in positions 1-7,
// left-padded with A, then 45 'x'. Lexicographic order is numeric order.
func Str(v int64) string {
	var b [StringLen]byte
	for i := 6; i >= 0; i-- {
		b[i] = byte('A' + v%26)
		v /= 26
	}
	copy(b[7:], xs)
	return string(b[:])
}

// string4 values cycle with the tuple position i mod 4.
var string4 = [4]string{
	"AAAA" + xs[:StringLen-4],
	"HHHH" + xs[:StringLen-4],
	"OOOO" + xs[:StringLen-4],
	"VVVV" + xs[:StringLen-4],
}

// String4 is the i-th value of the cyclic string4 attribute.
func String4(i int64) string { return string4[i%4] }
