package stats

import (
	"math"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// A hand-computed scale: I = 2 cycles of D = 10 s, nodes 1 and 2, threads 1
// and 2 on each.
//
//	cycle node thread  M   E  R [s]  L [s]
//	  1    1    1     30   1   9.0   9.9
//	  1    1    2     20   0   9.5   9.8
//	  1    2    1     10   2   9.8   9.7
//	  1    2    2     40   0   9.6   9.95
//	  2    1    1     25   0   9.2   9.6
//	  2    1    2     25   1   9.4   9.9
//	  2    2    1     20   0   9.9   9.8
//	  2    2    2     50   0   9.5   9.7
var handRows = []ThreadCycle{
	{1, 1, 1, 30, 1, 0, 9.0, 9.9},
	{1, 1, 2, 20, 0, 0, 9.5, 9.8},
	{1, 2, 1, 10, 2, 0, 9.8, 9.7},
	{1, 2, 2, 40, 0, 0, 9.6, 9.95},
	{2, 1, 1, 25, 0, 0, 9.2, 9.6},
	{2, 1, 2, 25, 1, 0, 9.4, 9.9},
	{2, 2, 1, 20, 0, 0, 9.9, 9.8},
	{2, 2, 2, 50, 0, 0, 9.5, 9.7},
}

func TestThreadRates(t *testing.T) {
	r := handRows[0]
	// eq. 2: 30 / 9.0 s; eq. 3: 30 / 9.9 s; eq. 4: 30 / 10 s.
	if !near(TpsR(r), 30/9.0) || !near(TpsE(r), 30/9.9) || !near(TpsD(r, 10), 3) {
		t.Errorf("tpsR %v tpsE %v tpsD %v", TpsR(r), TpsE(r), TpsD(r, 10))
	}
	if TpsR(ThreadCycle{}) != 0 {
		t.Errorf("a thread with no commits has rate 0")
	}
}

func TestSummarizeScale(t *testing.T) {
	s, err := SummarizeScale(handRows, 2, 10)
	if err != nil {
		t.Fatal(err)
	}
	// eq. 7: T_1 = (30+20+10+40)/10 = 10; T_2 = (25+25+20+50)/10 = 12.
	if !reflect.DeepEqual(s.Cycles, []float64{10, 12}) {
		t.Errorf("T_i %v", s.Cycles)
	}
	// median and mean of {10, 12} = 11; sample stddev sqrt((1+1)/1) = sqrt 2.
	if !near(s.Median, 11) || !near(s.Mean, 11) || !near(s.StdDev, math.Sqrt2) || s.Min != 10 || s.Max != 12 {
		t.Errorf("summary %v %v %v %v %v", s.Median, s.Mean, s.StdDev, s.Min, s.Max)
	}
	// eq. 5: M = 100 + 120 = 220; failed 1+2+1 = 4.
	if s.Transactions != 220 || s.Failed != 4 {
		t.Errorf("M %d failed %d", s.Transactions, s.Failed)
	}
	// sum r = 37.9 + 38.0 = 75.9 s; eq. 11: f = 75.9 / (2 x 10) = 3.795.
	if !near(s.ResidenceS, 75.9) || !near(s.F, 3.795) {
		t.Errorf("residence %v f %v", s.ResidenceS, s.F)
	}
	// eq. 8: T = 220 / 20 = 11; eq. 9: T^r = 220 / 75.9; eq. 10: T = f x T^r.
	if !near(s.T, 11) || !near(s.Tr, 220/75.9) || !near(s.F*s.Tr, s.T) {
		t.Errorf("T %v T^r %v f*T^r %v", s.T, s.Tr, s.F*s.Tr)
	}
	// column 11: longest L per cycle 9.95 and 9.9, mean 9.925 s.
	if !near(s.EffectiveS, 9.925) {
		t.Errorf("effective %v", s.EffectiveS)
	}
	// eq. 6: node 1: 50/10, 50/10; node 2: 50/10, 70/10.
	want := []NodeRates{{1, []float64{5, 5}, []int{1, 2}}, {2, []float64{5, 7}, []int{1, 2}}}
	if !reflect.DeepEqual(s.Nodes, want) {
		t.Errorf("T_in %v", s.Nodes)
	}
}

// TestNodeCycleRatesLostNode: a remote node lost in cycle 2 has rows in
// cycle 1 only; its rates are of that cycle, not zeros for the cycles it
// never ran.
func TestNodeCycleRatesLostNode(t *testing.T) {
	rows := []ThreadCycle{
		{Cycle: 1, Node: 0, Committed: 10}, {Cycle: 1, Node: 1, Committed: 20},
		{Cycle: 2, Node: 0, Committed: 30}, {Cycle: 3, Node: 0, Committed: 40},
	}
	got, err := NodeCycleRates(rows, 3, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []NodeRates{{0, []float64{1, 3, 4}, []int{1, 2, 3}}, {1, []float64{2}, []int{1}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("T_in %v, want %v", got, want)
	}
}

func TestSummarizeScaleRejects(t *testing.T) {
	if _, err := SummarizeScale(handRows, 1, 10); err == nil {
		t.Error("cycle 2 of a 1-cycle scale accepted")
	}
	if _, err := SummarizeScale(handRows, 2, 0); err == nil {
		t.Error("D = 0 accepted")
	}
	if _, err := SummarizeScale([]ThreadCycle{{Cycle: 0}}, 2, 10); err == nil {
		t.Error("cycle 0 accepted (cycles are 1..I)")
	}
}

func TestConfidenceRates(t *testing.T) {
	// The seed's example (§4.1.5): with f = 4 and a 0.95 quantile of 8 ms,
	// the 95 % rate is 4 / 0.008 s = 500 tps.
	if r := ConfidenceRate(4, 0.008); !near(r, 500) {
		t.Errorf("rate %v", r)
	}
	// Raw residence times 1..10 ms; nearest rank: the 0.5 quantile is the
	// 5th value (5 ms), 0.68 the 7th (ceil 6.8 = 7: 7 ms), 0.95 the 10th
	// (ceil 9.5 = 10: 10 ms). With f = 2: 2/0.005 = 400, 2/0.007 = 285.71,
	// 2/0.010 = 200 tps.
	var raw []float64
	for i := 10; i >= 1; i-- {
		raw = append(raw, float64(i)/1000)
	}
	sort.Float64s(raw)
	got, err := ConfidenceRates(2, []float64{50, 68, 95}, func(q float64) float64 { return Quantile(raw, q) })
	if err != nil {
		t.Fatal(err)
	}
	if !near(got["50"], 400) || !near(got["68"], 2/0.007) || !near(got["95"], 200) || len(got) != 3 {
		t.Errorf("rates %v", got)
	}
	if _, err := ConfidenceRates(2, []float64{100}, func(float64) float64 { return 1 }); err == nil {
		t.Error("level 100% accepted")
	}
	if LevelKey(99.7) != "99.7" || LevelKey(50) != "50" {
		t.Errorf("keys %q %q", LevelKey(99.7), LevelKey(50))
	}
	if !math.IsNaN(ConfidenceRate(1, 0)) {
		t.Error("a zero quantile gives a rate")
	}
}

func TestQuantileFromPoints(t *testing.T) {
	// Between (0.5, 100 us) and (0.9, 500 us), q = 0.7 is half way: 300 us.
	p := []QuantilePoint{{0.9, 500}, {0.5, 100}}
	for _, c := range []struct{ q, want float64 }{{0.7, 300}, {0.1, 100}, {0.99, 500}, {0.5, 100}} {
		if got := QuantileFromPoints(p, c.q); !near(got, c.want) {
			t.Errorf("q %v: %v, want %v", c.q, got, c.want)
		}
	}
}

func TestDSI(t *testing.T) {
	cases := []struct {
		name   string
		scales []int64
		rates  []float64
		want   float64
	}{
		// lg X = 0, 1, 2; lg T = 2, 3, 2:
		// 0.5 x ((2+3) x 1 / 2 + (3+2) x 1 / 2) = 0.5 x 5 = 2.5
		{"peak", []int64{1, 10, 100}, []float64{100, 1000, 100}, 2.5},
		// lg X = 0, 1, 3; lg T = 1, 2, 0; given out of order:
		// 0.5 x ((1+2) x 1 / 2 + (2+0) x 2 / 2) = 0.5 x 3.5 = 1.75
		{"unsorted", []int64{1000, 1, 10}, []float64{1, 10, 100}, 1.75},
		// flat 10 tps over 1, 2, 5: 0.5 x (1+1) x lg 5 / 2 = 0.5 x lg 5
		{"flat", []int64{1, 2, 5}, []float64{10, 10, 10}, 0.5 * math.Log10(5)},
	}
	for _, c := range cases {
		got, err := DSI(c.scales, c.rates)
		if err != nil || !near(got, c.want) {
			t.Errorf("%s: %v %v, want %v", c.name, got, err, c.want)
		}
	}
	for name, in := range map[string]struct {
		s []int64
		r []float64
	}{
		"one scale":  {[]int64{1}, []float64{10}},
		"zero rate":  {[]int64{1, 2}, []float64{10, 0}},
		"twice":      {[]int64{2, 2}, []float64{10, 10}},
		"zero scale": {[]int64{0, 2}, []float64{10, 10}},
	} {
		if _, err := DSI(in.s, in.r); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestScaleRanges(t *testing.T) {
	// TPC-B, 4 clients. Maximum 1000 tps at scale 10; the first scale after
	// it at <= 100 tps is 1000 (90 tps), so the cut-off is 500..1000.
	// Scales <= 4 are 1 and 2 (50 + 20 = 70 failed trials): collision 1..2;
	// core 2..500; storage
	// 1000..2000.
	tpcb := RangeCurve{
		Scales:  []int64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000},
		Medians: []float64{200, 400, 900, 1000, 800, 700, 500, 300, 150, 90, 40},
		Failed:  []int64{50, 20, 3, 1, 0, 0, 0, 0, 0, 0, 0},
		Clients: 4,
		Writes:  true,
	}
	// SELECT: no collision range; 60 tps at 1000 is below 52000/10.
	sel := RangeCurve{
		Scales:  []int64{100, 1, 1000, 10},
		Medians: []float64{48000, 50000, 60, 52000},
		Clients: 4,
	}
	// No fall by an order of magnitude: core only, to the last scale.
	flat := RangeCurve{Scales: []int64{1, 10, 100}, Medians: []float64{100, 90, 20}, Clients: 1}
	cases := []struct {
		name string
		in   RangeCurve
		want []ScaleRange
	}{
		{"tpcb", tpcb, []ScaleRange{{Name: RangeCollision, From: 1, To: 2}, {Name: RangeCore, From: 2, To: 500}, {Name: RangeCutOff, From: 500, To: 1000}, {Name: RangeStorage, From: 1000, To: 2000}}},
		{"select", sel, []ScaleRange{{Name: RangeCore, From: 1, To: 100}, {Name: RangeCutOff, From: 100, To: 1000}, {Name: RangeStorage, From: 1000, To: 1000}}},
		{"flat", flat, []ScaleRange{{Name: RangeCore, From: 1, To: 100}}},
	}
	for _, c := range cases {
		got, err := ScaleRanges(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(got) != len(c.want) {
			t.Fatalf("%s: %+v", c.name, got)
		}
		for i := range got {
			if got[i].Reason == "" {
				t.Errorf("%s: %s has no reason", c.name, got[i].Name)
			}
			got[i].Reason = ""
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
	r, _ := ScaleRanges(tpcb)
	if want := "(70 failed trials here)"; !strings.Contains(r[0].Reason, want) {
		t.Errorf("collision reason %q lacks %q", r[0].Reason, want)
	}
	if _, err := ScaleRanges(RangeCurve{Scales: []int64{1}, Medians: []float64{math.NaN()}}); err == nil {
		t.Error("NaN rate accepted")
	}
}

// Nearest rank at levels whose product with n is a whole number in exact
// arithmetic but not in floating point: 0.68 x 75 = 51, 0.68 x 150 = 102,
// 0.68 x 175 = 119 and (99.9/100) x 1000 = 999 are each a few ulps above the
// integer as doubles, and a bare ceiling took the next value. On the values
// 1..n the q-quantile is the rank ceil(q n) itself. Products that are not
// whole stay where they were: ceil(0.95 x 10) = ceil(9.5) = 10,
// ceil(0.5 x 3) = 2, ceil(0.951 x 100) = ceil(95.1) = 96, ceil(0.68 x 10) = 7.
func TestQuantileNearestRankExact(t *testing.T) {
	// The division at run time, as ConfidenceRates does it (a constant
	// expression 99.9/100 would be folded exactly by the compiler).
	percent := func(p float64) float64 { return p / 100 }
	ramp := func(n int) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = float64(i + 1)
		}
		return s
	}
	for _, c := range []struct {
		n    int
		q    float64
		want float64
	}{
		{75, 0.68, 51}, {150, 0.68, 102}, {175, 0.68, 119}, {1000, percent(99.9), 999},
		{10, 0.95, 10}, {3, 0.5, 2}, {100, 0.951, 96}, {10, 0.68, 7},
		{200, 0.025, 5}, {200, 0.975, 195}, {10, 0, 1}, {10, 1, 10},
	} {
		if got := Quantile(ramp(c.n), c.q); got != c.want {
			t.Errorf("Quantile(1..%d, %v) = %v, want %v", c.n, c.q, got, c.want)
		}
	}
	// ConfidenceRates divides the level in percent by 100 (68/100), the path
	// the dsbench conf columns take: the 68 % quantile of 1..75 ms is 51 ms,
	// so with f = 1 the rate is 1/0.051 tps.
	raw := ramp(75)
	for i := range raw {
		raw[i] /= 1000
	}
	got, err := ConfidenceRates(1, []float64{68}, func(q float64) float64 { return Quantile(raw, q) })
	if err != nil || got["68"] != 1/0.051 {
		t.Errorf("68%% rate over 1..75 ms: %v (%v), want %v", got["68"], err, 1/0.051)
	}
}
