package orders

import (
	"context"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// Check is the consistency check of a scale's cycles: the conditions
// numbered Numbers after each cycle. The conditions are states of the
// database, not counts of what the clients committed, so a cycle's
// commits, those in doubt and a lost load node's change nothing in what
// must hold.
type Check struct {
	Numbers []int
	results []Result
}

// NewCheck checks the conditions numbered numbers (CoreConditions when
// none).
func NewCheck(numbers ...int) *Check {
	if len(numbers) == 0 {
		numbers = CoreConditions
	}
	return &Check{Numbers: numbers}
}

var _ workload.Check = (*Check)(nil)

// Read checks the conditions; a statement that failed is an error, a
// condition that does not hold is not.
func (c *Check) Read(ctx context.Context, e dbms.Engine) error {
	r, err := CheckConditions(ctx, e, c.Numbers)
	if err != nil {
		return err
	}
	c.results = r
	return nil
}

// Verify returns a line per condition that does not hold.
func (c *Check) Verify(workload.Commits) []string {
	var bad []string
	for _, r := range c.results {
		if !r.Passed() {
			bad = append(bad, r.String())
		}
	}
	return bad
}

// Results are the last Read's results, a condition each, passed or not:
// what a report names.
func (c *Check) Results() []Result { return c.results }

// Cleanup does nothing: the tables that grow (orders, order lines,
// history) must keep every row for the conditions to hold.
func (c *Check) Cleanup(context.Context, dbms.Engine) error { return nil }
