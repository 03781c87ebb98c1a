package parse

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// MaxScripts is the most scripts one run takes (pgbench's MAX_SCRIPTS).
const MaxScripts = 128

// ParseWeight splits "FILE@WEIGHT" as pgbench does: at the last "@", the
// weight a decimal integer from 0 to 2147483647 (0: the script is parsed
// but never chosen); with no "@" the weight is 1.
func ParseWeight(spec string) (name string, weight int, err error) {
	i := strings.LastIndexByte(spec, '@')
	if i < 0 {
		return spec, 1, nil
	}
	name, w := spec[:i], spec[i+1:]
	// strtol's syntax: leading white space, a sign, digits.
	t := strings.TrimLeft(w, " \t\n\r\f\v")
	digits := t
	if digits != "" && (digits[0] == '+' || digits[0] == '-') {
		digits = digits[1:]
	}
	n, err := strconv.ParseInt(strings.TrimPrefix(t, "+"), 10, 64)
	if digits == "" || strings.TrimLeft(digits, "0123456789") != "" || err != nil {
		return "", 0, fmt.Errorf("invalid weight specification: @%s (write FILE@N with N a whole number, e.g. script.sql@2)", w)
	}
	if n < 0 || n > math.MaxInt32 {
		return "", 0, fmt.Errorf("weight specification out of range (0 .. %d): %s", math.MaxInt32, w)
	}
	return name, int(n), nil
}

// Load reads and parses the script file of spec, "FILE[@WEIGHT]".
func Load(spec string, opts Options) (*Script, error) {
	file, weight, err := ParseWeight(spec)
	if err != nil {
		return nil, err
	}
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("could not open file %q: %w", file, err)
	}
	s, err := Parse(file, string(src), opts)
	if err != nil {
		return nil, err
	}
	s.Weight = weight
	return s, nil
}

// CheckScripts checks the set of scripts of one run as pgbench does: at
// least one, at most MaxScripts, and a total weight above zero.
func CheckScripts(scripts []*Script) error {
	if len(scripts) == 0 {
		return fmt.Errorf("no script: give one with -f FILE[@WEIGHT] or -b NAME[@WEIGHT]")
	}
	if len(scripts) > MaxScripts {
		return fmt.Errorf("at most %d SQL scripts are allowed (%d given)", MaxScripts, len(scripts))
	}
	var total int64
	for _, s := range scripts {
		total += int64(s.Weight)
	}
	if total == 0 {
		return fmt.Errorf("total script weight must not be zero: give one script a weight above 0")
	}
	return nil
}
