package orders

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Money travels as text and is counted in Go as an integer number of
// hundredths (cents), rates as ten-thousandths: the engines store
// DECIMAL, and the consistency conditions compare sums of amounts for
// equality (condition 10: C_BALANCE = sum(OL_AMOUNT) - sum(H_AMOUNT);
// 12: C_BALANCE + C_YTD_PAYMENT = sum(OL_AMOUNT)), which a float on the
// way would break by a cent now and then.

// parseFixed reads s, a number as an engine prints a DECIMAL ("12.3",
// "-0.0500", "7"), as an integer of scale digits after the point,
// rounding half away from zero past them. An engine that keeps the
// value as a float (SQLite's NUMERIC affinity) may print a long
// fraction or an exponent; that goes through strconv and is rounded the
// same way.
func parseFixed(s string, scale int) (int64, error) {
	if s == "" {
		return 0, fmt.Errorf("number expected, got NULL")
	}
	if strings.ContainsAny(s, "eE") {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, fmt.Errorf("number expected, got %q", s)
		}
		return int64(math.Round(f * math.Pow10(scale))), nil
	}
	neg := false
	switch s[0] {
	case '-':
		neg, s = true, s[1:]
	case '+':
		s = s[1:]
	}
	var v int64
	digits, after, seenPoint, roundUp := 0, 0, false, false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '.' && !seenPoint:
			seenPoint = true
		case ch >= '0' && ch <= '9':
			digits++
			if seenPoint {
				if after == scale {
					// The first digit past the scale decides the rounding.
					roundUp = ch >= '5'
					after++
					continue
				}
				if after > scale {
					continue
				}
				after++
			}
			if v > (math.MaxInt64-9)/10 {
				return 0, fmt.Errorf("number %q too large", s)
			}
			v = v*10 + int64(ch-'0')
		default:
			return 0, fmt.Errorf("number expected, got %q", s)
		}
	}
	if digits == 0 {
		return 0, fmt.Errorf("number expected, got %q", s)
	}
	for ; after < scale; after++ {
		v *= 10
	}
	if roundUp {
		v++
	}
	if neg {
		v = -v
	}
	return v, nil
}

// parseCents reads an amount of money.
func parseCents(s string) (int64, error) { return parseFixed(s, 2) }

// parseRate reads a DECIMAL(4,4) rate (a tax, a discount) in
// ten-thousandths.
func parseRate(s string) (int64, error) { return parseFixed(s, 4) }

// appendCents writes c hundredths as a decimal number ("-12.05").
func appendCents(b []byte, c int64) []byte {
	if c < 0 {
		b = append(b, '-')
		c = -c
	}
	b = strconv.AppendInt(b, c/100, 10)
	b = append(b, '.')
	if c%100 < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, c%100, 10)
}

// formatCents is appendCents as a string: what a statement binds.
func formatCents(c int64) string { return string(appendCents(nil, c)) }

// totalAmount is a New-Order's total (clause 2.4.2.2): the lines' sum
// times (1 - C_DISCOUNT) times (1 + W_TAX + D_TAX), in cents, rounded
// half up; rates are in ten-thousandths. It is only shown to the
// terminal, never stored.
func totalAmount(sum, discount, wTax, dTax int64) int64 {
	const unit = 10_000
	num := sum * (unit - discount) * (unit + wTax + dTax)
	return (num + unit*unit/2) / (unit * unit)
}
