package expr

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// The C library's number formats and parsers that pgbench's output and
// input go through, as glibc implements them: what a double looks like in
// SQL (%.15g), in messages (%f), and which strings strtod and pgbench's
// strtoint64 accept.

// nonFinite spells infinities and NaNs as PostgreSQL's own printf (which
// pgbench is linked with) does.
func nonFinite(f float64) (string, bool) {
	switch {
	case math.IsNaN(f):
		return "NaN", true
	case math.IsInf(f, 1):
		return "Infinity", true
	case math.IsInf(f, -1):
		return "-Infinity", true
	}
	return "", false
}

// formatG15 is printf("%.15g", f) as pgbench prints a double.
func formatG15(f float64) string {
	if s, ok := nonFinite(f); ok {
		return s
	}
	const prec = 15
	// %e with prec-1 digits after the point gives the rounded digits and the
	// exponent %g decides by.
	e := strconv.FormatFloat(f, 'e', prec-1, 64)
	mant, expText, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expText)
	if exp < -4 || exp >= prec {
		mant = trimFraction(mant)
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		digits := strconv.Itoa(exp)
		if len(digits) < 2 {
			digits = "0" + digits
		}
		return mant + "e" + sign + digits
	}
	return trimFraction(strconv.FormatFloat(f, 'f', prec-1-exp, 64))
}

// trimFraction drops trailing zeros after a decimal point, and the point.
func trimFraction(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// formatF6 is printf("%f", f) as pgbench prints a double in messages.
func formatF6(f float64) string {
	if s, ok := nonFinite(f); ok {
		return s
	}
	return strconv.FormatFloat(f, 'f', 6, 64)
}

var (
	errSyntax = errors.New("invalid syntax")
	errRange  = errors.New("out of range")
)

// isCSpace is C's isspace in the C locale.
func isCSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHexDigit(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// skipSpaceSign skips leading spaces and one sign; neg says it was '-'.
func skipSpaceSign(s string) (i int, neg bool) {
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		neg = s[i] == '-'
		i++
	}
	return i, neg
}

// parseInt64 is pgbench's strtoint64: optional spaces, an optional sign,
// digits, optional spaces, and nothing else; errRange when it does not fit.
func parseInt64(s string) (int64, error) {
	i, neg := skipSpaceSign(s)
	if i >= len(s) || !isDigit(s[i]) {
		return 0, errSyntax
	}
	// Accumulate negatively: -2^63 has no positive counterpart.
	var acc int64
	overflow := false
	for ; i < len(s) && isDigit(s[i]); i++ {
		d := int64(s[i] - '0')
		if acc < (math.MinInt64+d)/10 {
			overflow = true
		}
		acc = acc*10 - d
	}
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	if i != len(s) {
		return 0, errSyntax
	}
	if overflow || (!neg && acc == math.MinInt64) {
		return 0, errRange
	}
	if !neg {
		acc = -acc
	}
	return acc, nil
}

// isAnInt is pgbench's test for a variable's text being an integer: optional
// leading spaces, an optional sign, digits to the end.
func isAnInt(s string) bool {
	i, _ := skipSpaceSign(s)
	if i < len(s) && !isDigit(s[i]) {
		return false
	}
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i == len(s)
}

// parseDouble is pgbench's strtodouble: glibc's strtod over the whole
// string (leading spaces, decimal or hexadecimal, inf, infinity, nan), with
// errRange where strtod reports ERANGE: overflow, and results that underflow
// to zero or to a subnormal.
func parseDouble(s string) (float64, error) {
	i, neg := skipSpaceSign(s)
	rest := s[i:]
	lower := strings.ToLower(rest)
	var f float64
	switch {
	case lower == "inf" || lower == "infinity":
		f = math.Inf(1)
	case lower == "nan" || (strings.HasPrefix(lower, "nan(") && strings.HasSuffix(lower, ")") && isNanChars(lower[4:len(lower)-1])):
		f = math.NaN()
	default:
		var err error
		if f, err = parseFiniteDouble(rest); err != nil {
			return 0, err
		}
	}
	if neg {
		f = -f
	}
	return f, nil
}

func isNanChars(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isDigit(c) || c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z')) {
			return false
		}
	}
	return true
}

// parseFiniteDouble parses unsigned decimal or hexadecimal digits that must
// make up all of s.
func parseFiniteDouble(s string) (float64, error) {
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && (isHexDigit(s[2]) || (s[2] == '.' && len(s) > 3 && isHexDigit(s[3]))) {
		return parseHexDouble(s)
	}
	i, mantDigits, nonzero := 0, 0, false
	for ; i < len(s) && isDigit(s[i]); i++ {
		mantDigits++
		nonzero = nonzero || s[i] != '0'
	}
	if i < len(s) && s[i] == '.' {
		i++
		for ; i < len(s) && isDigit(s[i]); i++ {
			mantDigits++
			nonzero = nonzero || s[i] != '0'
		}
	}
	if mantDigits == 0 {
		return 0, errSyntax
	}
	if i = exponentEnd(s, i, 'e'); i != len(s) {
		return 0, errSyntax
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, errSyntax
	}
	return f, rangeOf(f, nonzero)
}

// parseHexDouble parses C's hexadecimal floating form, whose binary
// exponent is optional (Go's parser requires it).
func parseHexDouble(s string) (float64, error) {
	i, nonzero := 2, false
	for ; i < len(s) && isHexDigit(s[i]); i++ {
		nonzero = nonzero || s[i] != '0'
	}
	if i < len(s) && s[i] == '.' {
		i++
		for ; i < len(s) && isHexDigit(s[i]); i++ {
			nonzero = nonzero || s[i] != '0'
		}
	}
	body := s[:i]
	exp := "p0"
	if j := exponentEnd(s, i, 'p'); j > i {
		exp, i = s[i:j], j
	}
	if i != len(s) {
		return 0, errSyntax
	}
	f, err := strconv.ParseFloat(body+exp, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, errSyntax
	}
	return f, rangeOf(f, nonzero)
}

// rangeOf says whether glibc's strtod would set ERANGE for this result.
func rangeOf(f float64, nonzero bool) error {
	a := math.Abs(f)
	if math.IsInf(f, 0) || (nonzero && a < 0x1p-1022) {
		return errRange
	}
	return nil
}

// exponentEnd is where an exponent starting at s[i] ends: the letter mark
// (either case), an optional sign, at least one digit; i when there is none.
func exponentEnd(s string, i int, mark byte) int {
	if i >= len(s) || s[i]|0x20 != mark {
		return i
	}
	j := i + 1
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		j++
	}
	if j >= len(s) || !isDigit(s[j]) {
		return i
	}
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	return j
}
