package orders

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// figureCheck wraps the consistency check with the workload's figures
// (workload.Figurer): new orders per minute from the database (the
// increase of the districts' next order numbers: NOPM), beside the
// clients' own New-Order commits per minute; transactions per minute of
// every type; the efficiency against 12.86 new orders per minute per
// warehouse in the keyed mode; and the audit of the inputs (clause 9.2)
// once the scale has had auditMin transactions.
type figureCheck struct {
	inner workload.Check
	wh    int64
	waits bool
	// next is the districts' next order numbers summed, as read after
	// the previous cycle (after the load, before the first).
	next, prev int64
	// The scale so far: new orders in the database, the clients' counts.
	newOrders, minutes float64
	committed          int64
	byType             [numTypes]int64
	counts             [numCounts]int64
	figs               []workload.Figure
}

// auditMin is the transactions a scale needs before its inputs are
// audited (clause 9.2 asks for a run long enough; CockroachDB's kit
// audits from 10,000).
const auditMin = 10_000

func newFigureCheck(inner workload.Check, wh int64, waits bool) *figureCheck {
	// After the load every district's next order is 3,001.
	start := (OrdersPerDistrict + 1) * DistrictsPerWarehouse * wh
	return &figureCheck{inner: inner, wh: wh, waits: waits, next: start, prev: start}
}

func (c *figureCheck) Read(ctx context.Context, e dbms.Engine) error {
	if err := c.inner.Read(ctx, e); err != nil {
		return err
	}
	rows, err := e.QueryRows(ctx, "SELECT SUM(d_next_o_id) FROM district")
	if err != nil {
		return fmt.Errorf("read the districts' next order numbers: %w", err)
	}
	if len(rows) != 1 || len(rows[0]) != 1 {
		return fmt.Errorf("read the districts' next order numbers: %d rows", len(rows))
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(rows[0][0]), 64)
	if err != nil {
		return fmt.Errorf("read the districts' next order numbers: %q: %w", rows[0][0], err)
	}
	c.next = int64(v)
	return nil
}

func (c *figureCheck) Verify(n workload.Commits) []string {
	bad := c.inner.Verify(n)
	orders := float64(c.next - c.prev)
	c.prev = c.next
	min := n.Elapsed.Minutes()
	c.newOrders += orders
	c.minutes += min
	c.committed += n.Committed
	var cycleCounts [numCounts]int64
	for i := 0; i < numCounts && i < len(n.Counts); i++ {
		cycleCounts[i] = n.Counts[i]
		c.counts[i] += n.Counts[i]
	}
	var cycleNew int64
	for t := 0; t < numTypes && t < len(n.ByType); t++ {
		c.byType[t] += n.ByType[t]
	}
	if len(n.ByType) > NewOrder {
		cycleNew = n.ByType[NewOrder] - cycleCounts[cntRollbacks]
	}
	per := func(v, m float64) float64 {
		if m <= 0 {
			return 0
		}
		return v / m
	}
	c.figs = []workload.Figure{
		{Name: "NOPM (database)", Unit: "/min", Cycle: per(orders, min), Scale: per(c.newOrders, c.minutes)},
		{Name: "new orders per minute (clients)", Unit: "/min", Cycle: per(float64(cycleNew), min),
			Scale: per(float64(c.byType[NewOrder]-c.counts[cntRollbacks]), c.minutes)},
		{Name: "transactions per minute", Unit: "/min", Cycle: per(float64(n.Committed), min), Scale: per(float64(c.committed), c.minutes)},
	}
	if c.waits {
		eff := func(nopm float64) float64 { return 100 * nopm / (maxNOPMPerWarehouse * float64(c.wh)) }
		c.figs = append(c.figs, workload.Figure{Name: "efficiency", Unit: "%", Cycle: eff(per(orders, min)), Scale: eff(per(c.newOrders, c.minutes))})
	}
	c.figs = append(c.figs, c.audit()...)
	return bad
}

// maxNOPMPerWarehouse is the most new orders a warehouse's ten keyed
// terminals can enter per minute (clause 4.2.2: 12.86).
const maxNOPMPerWarehouse = 12.86

// audit is the input-distribution audit of clause 9.2 over the scale so
// far. A figure is judged once the scale has had auditMin transactions
// and its own inputs are enough for its bounds to lie at least
// auditSigmas standard errors from the share the spec draws: fewer, and a
// correct draw would fall outside by chance more often than 3 times in
// 1,000 (Order-Status is 4 % of the mix: its 57-63 % by last name needs
// 2,400 of them; the 0.9-1.1 % of rollbacks 89,000 New-Orders). A figure not
// judged yet is shown without bounds. With one warehouse there is no
// remote warehouse: the remote shares are not judged.
func (c *figureCheck) audit() []workload.Figure {
	judged := c.committed >= auditMin
	// share is part over whole in percent, judged against lo..hi when
	// whole is enough for a share p (the spec's) whose bounds are d away.
	share := func(name string, part, whole int64, lo, hi, p float64, applies bool) workload.Figure {
		v := 0.0
		if whole > 0 {
			v = 100 * float64(part) / float64(whole)
		}
		f := workload.Figure{Name: name, Unit: "%", Cycle: v, Scale: v}
		d := min(p-lo, hi-p) / 100
		q := p / 100
		if judged && applies && whole > 0 && enough(float64(whole), math.Sqrt(q*(1-q)), d) {
			f.Low, f.High = &lo, &hi
		}
		return f
	}
	newOrders := c.byType[NewOrder]
	lines := workload.Figure{Name: "lines per order"}
	if newOrders > 0 {
		lines.Scale = float64(c.counts[cntLines]) / float64(newOrders)
	}
	lines.Cycle = lines.Scale
	// Lines per order are uniform on 5..15: standard deviation sqrt(10).
	if judged && newOrders > 0 && enough(float64(newOrders), math.Sqrt(10), 0.5) {
		lo, hi := 9.5, 10.5
		lines.Low, lines.High = &lo, &hi
	}
	remote := c.wh > 1
	visited := c.counts[cntSkippedDeliveries] + c.counts[cntDeliveredDistricts]
	return []workload.Figure{
		share("rollbacks", c.counts[cntRollbacks], newOrders, 0.9, 1.1, 1, true),
		lines,
		share("remote order lines", c.counts[cntRemoteLines], c.counts[cntLines], 0.95, 1.05, 1, remote),
		share("remote payments", c.counts[cntRemotePayments], c.byType[Payment], 14, 16, 15, remote),
		share("payments by last name", c.counts[cntPaymentsByName], c.byType[Payment], 57, 63, 60, true),
		share("order-status by last name", c.counts[cntStatusByName], c.byType[OrderStatus], 57, 63, 60, true),
		// Skips are no draw (a district emptied by deliveries), so only
		// the count of visits matters.
		share("skipped deliveries", c.counts[cntSkippedDeliveries], visited, 0, 1, 0, visited >= auditMin/100),
	}
}

// auditSigmas is how many standard errors a bound must lie from the
// expected value before the audit judges a figure: a correct draw then
// fails a figure 0.27 % of the time.
const auditSigmas = 3

// enough says whether n inputs of standard deviation sd put a bound d
// away from the mean at least auditSigmas standard errors away.
func enough(n, sd, d float64) bool {
	return d*math.Sqrt(n) >= auditSigmas*sd
}

func (c *figureCheck) Figures() []workload.Figure { return c.figs }

func (c *figureCheck) Cleanup(ctx context.Context, e dbms.Engine) error {
	return c.inner.Cleanup(ctx, e)
}

// CheckLoaded checks all twelve conditions right after the population,
// the one time condition 11 holds (workload.LoadChecker).
func (c *figureCheck) CheckLoaded(ctx context.Context, e dbms.Engine) ([]string, error) {
	return violations(ctx, e, AfterLoadConditions)
}

// CheckFinal checks every condition but 11 after the scale's last cycle
// (workload.FinalChecker).
func (c *figureCheck) CheckFinal(ctx context.Context, e dbms.Engine) ([]string, error) {
	return violations(ctx, e, AfterRunConditions)
}

// violations are the conditions numbered numbers that do not hold, a line
// each naming the condition and where.
func violations(ctx context.Context, e dbms.Engine, numbers []int) ([]string, error) {
	rs, err := CheckConditions(ctx, e, numbers)
	if err != nil {
		return nil, err
	}
	var bad []string
	for _, r := range rs {
		if !r.Passed() {
			bad = append(bad, r.String())
		}
	}
	return bad, nil
}
