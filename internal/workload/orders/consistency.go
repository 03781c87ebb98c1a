package orders

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// The sets of conditions a caller runs: the four cheap ones after every
// cycle (as HammerDB checks them), every condition but 11 after a run,
// all twelve right after the population.
var (
	CoreConditions      = []int{1, 2, 3, 4}
	AfterRunConditions  = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12}
	AfterLoadConditions = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
)

// maxExamples bounds the violations a condition reads back.
const maxExamples = 5

var conditionsByNum = func() map[int]Condition {
	m := map[int]Condition{}
	for _, c := range conditions {
		m[c.Number] = c
	}
	return m
}()

// Conditions are the twelve conditions, in clause order.
func Conditions() []Condition { return append([]Condition(nil), conditions...) }

// ConditionNumber is condition n (1 to 12) of clause 3.3.2.
func ConditionNumber(n int) (Condition, error) {
	c, ok := conditionsByNum[n]
	if !ok {
		return Condition{}, fmt.Errorf("no consistency condition %d: they are numbered 1 to %d", n, len(conditions))
	}
	return c, nil
}

// Name is "3.3.2.N", the clause that states it.
func (c Condition) Name() string { return "3.3.2." + strconv.Itoa(c.Number) }

// Result is what checking one condition found.
type Result struct {
	Condition Condition
	// Violations counts the units (Condition.Unit) that break the
	// condition; Examples are the first of them (by warehouse, district,
	// order or customer) in words, at most five.
	Violations int64
	Examples   []string
}

// Passed says the condition holds.
func (r Result) Passed() bool { return r.Violations == 0 }

// String is the result in one line: "condition 3.3.2.2 (D_NEXT_O_ID - 1
// = max(O_ID) = max(NO_O_ID)) holds", or how many units break it and the
// first of them.
func (r Result) String() string {
	head := fmt.Sprintf("condition %s (%s)", r.Condition.Name(), r.Condition.Rule)
	if r.Passed() {
		return head + " holds"
	}
	unit := r.Condition.Unit
	if r.Violations != 1 {
		unit += "s"
	}
	more := ""
	if int64(len(r.Examples)) < r.Violations {
		more = "; ..."
	}
	return fmt.Sprintf("%s fails in %d %s: %s%s", head, r.Violations, unit, strings.Join(r.Examples, "; "), more)
}

// CheckConditions runs the conditions numbered numbers on e, one
// statement each (a statement reads one snapshot, so a condition is never
// broken by a commit landing between its reads), and returns a result per
// condition in the order asked. An error is a number that names no condition
// (before any statement runs) or a statement that failed, not a
// condition that does not hold.
func CheckConditions(ctx context.Context, e dbms.Engine, numbers []int) ([]Result, error) {
	cs := make([]Condition, len(numbers))
	for i, n := range numbers {
		c, err := ConditionNumber(n)
		if err != nil {
			return nil, err
		}
		cs[i] = c
	}
	out := make([]Result, 0, len(cs))
	for _, c := range cs {
		r, err := c.check(ctx, e)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// check runs one condition. Its violations are numbered in key order by
// a window (every engine here has ROW_NUMBER and COUNT(*) OVER (), while
// each bounds rows its own way: LIMIT, FIRST, ROWS), so only the first
// few come back however many there are, with their count.
func (c Condition) check(ctx context.Context, e dbms.Engine) (Result, error) {
	q := fmt.Sprintf(`SELECT * FROM (SELECT v.*, ROW_NUMBER() OVER (ORDER BY vw, vd, vx) AS vrow, COUNT(*) OVER () AS vbad
 FROM (%s) v) t WHERE vrow <= %d ORDER BY vrow`, c.violations, maxExamples)
	rows, err := e.QueryRows(ctx, q)
	if err != nil {
		return Result{}, fmt.Errorf("consistency condition %s: %w", c.Name(), err)
	}
	r := Result{Condition: c}
	for _, row := range rows {
		if len(row) < 6 {
			return r, fmt.Errorf("consistency condition %s: %d columns in a row, want at least 6", c.Name(), len(row))
		}
		if r.Violations == 0 {
			if r.Violations, err = strconv.ParseInt(row[len(row)-1], 10, 64); err != nil {
				return r, fmt.Errorf("consistency condition %s: count of violations %q: %w", c.Name(), row[len(row)-1], err)
			}
		}
		r.Examples = append(r.Examples, c.say(row[:len(row)-2]))
	}
	return r, nil
}
