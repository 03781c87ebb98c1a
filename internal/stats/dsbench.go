package stats

import (
	"fmt"
	"math"
	"sort"
)

// The arithmetic of the stress sweep: seed 001 §2.6, equations 1-11, on the
// counts a driver keeps per cycle i, node n and thread j. Pure functions on
// plain numbers: the experiment converts its journal into ThreadCycle rows
// and stores what these return.

// ThreadCycle is what one thread j of node n did in cycle i. Its fields have
// the names, types and order of results.CycleDetail (stats may not import
// results), so the caller converts one into the other with
// stats.ThreadCycle(detail).
type ThreadCycle struct {
	Cycle     int     // i, numbered 1..I as in the seed
	Node      int     // n, any numbering (0 for local)
	Thread    int     // j
	Committed int64   // M_inj: transactions committed within the cycle
	Failed    int64   // E_inj: trials rolled back
	Retries   int64   // attempts repeated under --retry (not in the seed)
	SumS      float64 // R_inj (eq. 1): sum of the residence times r_injm, seconds
	EffectS   float64 // L_inj: first start to last counted commit, seconds
}

// TpsR is equation 2, T^r_inj = M_inj / R_inj: the rate a thread would reach
// with no aborts and no client time. 0 when nothing committed.
func TpsR(t ThreadCycle) float64 { return ratio(t.Committed, t.SumS) }

// TpsE is equation 3, T^l_inj = M_inj / L_inj: the rate over the effective
// duration. 0 when nothing committed.
func TpsE(t ThreadCycle) float64 { return ratio(t.Committed, t.EffectS) }

// TpsD is equation 4, T^t_inj = M_inj / D: the rate over the demanded duration.
func TpsD(t ThreadCycle, d float64) float64 { return ratio(t.Committed, d) }

func ratio(m int64, s float64) float64 {
	if m == 0 {
		return 0
	}
	return float64(m) / s
}

// NodeRates is one node's T_in (eq. 6) for the cycles it ran: every cycle
// 1..I, except for a remote node lost during the run, which ran none from
// its loss on (it has no rows there; a rate of 0 would be a measurement it
// never made).
type NodeRates struct {
	Node   int       `json:"node"`
	Cycles []float64 `json:"cycles"` // T_in, in the order of Ran
	Ran    []int     `json:"ran"`    // the cycles i, ascending
}

// ScaleStats is everything one scale's counts give: columns 3-12 of seed 001
// Table 1 and the T_i of the cycle diagram.
type ScaleStats struct {
	Cycles []float64 `json:"cycles"` // T_i (eq. 7), index i-1
	// Summary of the T_i: Median is the scale's official rate (seed 001
	// §2.3), StdDev the sample standard deviation (n-1).
	Median, Mean, StdDev, Min, Max float64
	Transactions                   int64   // M (eq. 5), column 8
	Failed                         int64   // sum of E_inj, column 9
	Retries                        int64   // sum of retries
	ResidenceS                     float64 // sum of all r_injm, column 10
	// EffectiveS is column 11, the effective duration measured: the mean over
	// cycles of the longest L_inj of the cycle. L_inj runs from a thread's
	// first start to its last counted commit, so the longest one is the span
	// in which the cycle's counted work happened; averaged over cycles it
	// sits just below D and shows how much of D the counted work used (seed
	// 001 §2.6: "smaller than the demanded duration D").
	EffectiveS float64
	T          float64 // eq. 8, M / (I x D)
	Tr         float64 // eq. 9, M / sum r = 1 / R
	F          float64 // eq. 11, sum r / (I x D); T = f x T^r (eq. 10)
	Nodes      []NodeRates
}

// CycleRates is equation 7: T_i = sum over n, j of M_inj / D, for i = 1..I.
func CycleRates(rows []ThreadCycle, cycles int, d float64) ([]float64, error) {
	if err := checkRows(rows, cycles, d); err != nil {
		return nil, err
	}
	out := make([]float64, cycles)
	for _, r := range rows {
		out[r.Cycle-1] += float64(r.Committed)
	}
	for i := range out {
		out[i] /= d
	}
	return out, nil
}

// NodeCycleRates is equation 6: per node, T_in = sum over j of M_inj / D for
// each cycle i the node has rows in, nodes in ascending order of their
// number.
func NodeCycleRates(rows []ThreadCycle, cycles int, d float64) ([]NodeRates, error) {
	if err := checkRows(rows, cycles, d); err != nil {
		return nil, err
	}
	byNode := map[int]map[int]float64{}
	for _, r := range rows {
		c := byNode[r.Node]
		if c == nil {
			c = map[int]float64{}
			byNode[r.Node] = c
		}
		c[r.Cycle] += float64(r.Committed) / d
	}
	out := make([]NodeRates, 0, len(byNode))
	for n, c := range byNode {
		nr := NodeRates{Node: n}
		for i := 1; i <= cycles; i++ {
			if t, ok := c[i]; ok {
				nr.Cycles = append(nr.Cycles, t)
				nr.Ran = append(nr.Ran, i)
			}
		}
		out = append(out, nr)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Node < out[b].Node })
	return out, nil
}

// Multiplier is equation 11: f = (sum of all residence times) / (I x D). In a
// closed loop every client is always inside a transaction, so f is close to
// the number of concurrent clients; it converts a residence time into a rate
// of the whole system (seed 001 §2.6 after eq. 11).
func Multiplier(residenceS float64, cycles int, d float64) float64 {
	return residenceS / (float64(cycles) * d)
}

// SummarizeScale applies equations 1-11 to one scale's rows: I cycles of
// demanded duration d seconds. Rows must number cycles 1..I.
func SummarizeScale(rows []ThreadCycle, cycles int, d float64) (ScaleStats, error) {
	ti, err := CycleRates(rows, cycles, d)
	if err != nil {
		return ScaleStats{}, err
	}
	nodes, _ := NodeCycleRates(rows, cycles, d) // same checks passed above
	s := ScaleStats{Cycles: ti, Nodes: nodes}
	sum := Summarize(ti)
	s.Median, s.Mean, s.StdDev, s.Min, s.Max = sum.Median, sum.Mean, sum.StdDev, sum.Min, sum.Max
	longest := make([]float64, cycles)
	for _, r := range rows {
		s.Transactions += r.Committed
		s.Failed += r.Failed
		s.Retries += r.Retries
		s.ResidenceS += r.SumS
		longest[r.Cycle-1] = math.Max(longest[r.Cycle-1], r.EffectS)
	}
	for _, l := range longest {
		s.EffectiveS += l / float64(cycles)
	}
	s.T = float64(s.Transactions) / (float64(cycles) * d)
	s.Tr = ratio(s.Transactions, s.ResidenceS)
	s.F = Multiplier(s.ResidenceS, cycles, d)
	return s, nil
}

func checkRows(rows []ThreadCycle, cycles int, d float64) error {
	if cycles < 1 {
		return fmt.Errorf("dsbench stats: %d cycles, need at least 1", cycles)
	}
	if !(d > 0) || math.IsInf(d, 0) {
		return fmt.Errorf("dsbench stats: demanded duration %v s, need a positive number", d)
	}
	for _, r := range rows {
		if r.Cycle < 1 || r.Cycle > cycles {
			return fmt.Errorf("dsbench stats: cycle %d of node %d thread %d is outside 1..%d", r.Cycle, r.Node, r.Thread, cycles)
		}
		if r.Committed < 0 || r.Failed < 0 || r.SumS < 0 || r.EffectS < 0 {
			return fmt.Errorf("dsbench stats: negative count in cycle %d node %d thread %d", r.Cycle, r.Node, r.Thread)
		}
	}
	return nil
}
