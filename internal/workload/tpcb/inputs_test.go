package tpcb

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The input rules over many draws: the teller's own branch, 85/15
// local/remote accounts, remote accounts never on the own branch, and the
// delta range with both ends reachable.
func TestInputRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const x, draws = 10, 400_000
	var in Inputs
	local, minD, maxD := 0, int64(0), int64(0)
	var sum float64
	for i := 0; i < draws; i++ {
		Draw(rng, x, &in)
		if in.Tid < 1 || in.Tid > x*TellersPerBranch || in.Bid != (in.Tid-1)/TellersPerBranch+1 {
			t.Fatalf("teller %d with branch %d", in.Tid, in.Bid)
		}
		if in.Aid < 1 || in.Aid > x*AccountsPerBranch {
			t.Fatalf("account %d out of range", in.Aid)
		}
		if (in.Aid-1)/AccountsPerBranch+1 == in.Bid {
			local++
		}
		if in.Delta < -MaxDelta || in.Delta > MaxDelta {
			t.Fatalf("delta %d out of range", in.Delta)
		}
		minD, maxD = min(minD, in.Delta), max(maxD, in.Delta)
		sum += float64(in.Delta)
	}
	share := float64(local) / draws
	// Binomial standard error at n = 400,000 is 0.00056: 0.85 +- 0.003 is
	// more than 5 standard errors.
	if math.Abs(share-0.85) > 0.003 {
		t.Errorf("local share %.4f, want 0.85", share)
	}
	if minD > -MaxDelta+20 || maxD < MaxDelta-20 {
		t.Errorf("delta range seen %d..%d, want close to +-%d", minD, maxD, MaxDelta)
	}
	// Mean of a uniform -999,999..999,999: 0, standard error 577,350/sqrt(n) = 913.
	if mean := sum / draws; math.Abs(mean) > 5*913 {
		t.Errorf("delta mean %.0f, want about 0", mean)
	}
}

func TestScaleOneIsAlwaysLocal(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var in Inputs
	for i := 0; i < 10_000; i++ {
		Draw(rng, 1, &in)
		if in.Bid != 1 || in.Aid > AccountsPerBranch {
			t.Fatalf("scale 1 drew branch %d account %d", in.Bid, in.Aid)
		}
	}
}

func TestRows(t *testing.T) {
	row := make([]any, 4)
	r := NewRows(Accounts, 2)
	var n int64
	for r.Next(row) {
		n++
		if row[0].(int64) != n || row[1].(int64) != (n-1)/AccountsPerBranch+1 || len(row[3].(string)) != accountFillerLen {
			t.Fatalf("account row %v", row[:3])
		}
	}
	if n != 200_000 {
		t.Errorf("%d accounts at scale 2", n)
	}
}
