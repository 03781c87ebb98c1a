package pgbench

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// pgbench reads its numeric options with C's library functions, each with
// its own leniency; these reproduce what each accepts so that a command
// line pgbench takes is taken here and one it refuses is refused.

// isCSpace is C's isspace in the C locale.
func isCSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }

// scanInt reads what C's integer conversions read: white space, a sign,
// decimal digits. It returns the sign, the digits' value (over: beyond
// uint64, the value then meaningless) and where the digits end (0: no
// digits).
func scanInt(s string) (neg bool, u uint64, over bool, end int) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		d := uint64(s[i] - '0')
		if u > (math.MaxUint64-d)/10 {
			over = true
		} else {
			u = u*10 + d
		}
		i++
	}
	if i == start {
		return false, 0, false, 0
	}
	return neg, u, over, i
}

// strtol reads a decimal integer prefix as strtol(s, &end, 10) does:
// leading white space, a sign, digits; it returns the value (clamped to
// int64's range with rangeErr set, as strtol sets ERANGE) and how many
// bytes it used (0: no digits, no conversion).
func strtol(s string) (v int64, used int, rangeErr bool) {
	neg, u, rangeErr, i := scanInt(s)
	if i == 0 {
		return 0, 0, false
	}
	switch {
	case !neg && (rangeErr || u > math.MaxInt64):
		return math.MaxInt64, i, true
	case neg && (rangeErr || u > 1<<63):
		return math.MinInt64, i, true
	case neg:
		return -int64(u), i, false
	}
	return int64(u), i, false
}

// parseIntOption is pgbench's option_parse_int: a whole decimal number
// (white space around it allowed, nothing else after it) within lo..hi.
// An empty value reads as 0, as strtol leaves it.
func parseIntOption(name, val string, lo, hi int) (int, error) {
	v, used, rangeErr := strtol(val)
	rest := strings.TrimLeftFunc(val[used:], func(r rune) bool { return r < 0x80 && isCSpace(byte(r)) })
	if used == 0 {
		rest = strings.TrimLeft(val, " \t\n\v\f\r")
		if rest != "" {
			return 0, fmt.Errorf("invalid value %q for option %s: give a whole number from %d to %d", val, name, lo, hi)
		}
	} else if rest != "" {
		return 0, fmt.Errorf("invalid value %q for option %s: give a whole number from %d to %d", val, name, lo, hi)
	}
	// strtoint reports a value beyond int as out of range too.
	if rangeErr || v < math.MinInt32 || v > math.MaxInt32 || v < int64(lo) || v > int64(hi) {
		return 0, fmt.Errorf("%s %s: must be in range %d..%d", name, val, lo, hi)
	}
	return int(v), nil
}

// atoi is C's atoi on glibc: strtol's value truncated to 32 bits, 0 when
// there are no digits, whatever follows them ignored.
func atoi(s string) int32 {
	v, _, _ := strtol(s)
	return int32(v)
}

// atof is C's atof (strtod without its end pointer): the longest prefix
// that is a decimal or hexadecimal floating-point number, an infinity or a
// NaN, after white space; 0 when there is none.
func atof(s string) float64 {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	for n := len(s); n > 0; n-- {
		p := s[:n]
		if strings.ContainsAny(p, "_") {
			continue
		}
		body := strings.TrimLeft(p, "+-")
		if len(p)-len(body) > 1 {
			continue
		}
		lower := strings.ToLower(body)
		if strings.HasPrefix(lower, "0x") {
			if lower == "0x" {
				continue
			}
			if !strings.Contains(lower, "p") {
				p += "p0" // C takes a hexadecimal number without an exponent
			}
		} else if strings.HasPrefix(lower, "nan") {
			// "nan" and "nan(chars)": Go takes only the first.
			if lower != "nan" && !(strings.HasPrefix(lower, "nan(") && strings.HasSuffix(lower, ")")) {
				continue
			}
			return math.NaN()
		} else if lower != "inf" && lower != "infinity" && (strings.HasPrefix(lower, "in")) {
			continue
		}
		if v, err := strconv.ParseFloat(p, 64); err == nil || isRangeErr(err) {
			return v
		}
	}
	return 0
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// parseSeed is pgbench's --random-seed: "time", "rand", or what
// sscanf("%lu%c") reads as exactly one unsigned decimal number (white space
// and a sign before it allowed, a negative number wrapping around, nothing
// after it). ok is false for anything else.
func parseSeed(s string) (seed uint64, ok bool) {
	neg, u, over, end := scanInt(s)
	if end == 0 || end != len(s) {
		return 0, false
	}
	if over {
		u = math.MaxUint64
	}
	if neg {
		u = -u
	}
	return u, true
}
