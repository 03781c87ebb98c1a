package tpcb

import "math/rand/v2"

// Inputs are one transaction's inputs (TPC-B 2.0 clause 1.2 and 5.3).
type Inputs struct {
	Aid, Tid, Bid, Delta int64
}

// MaxDelta bounds the amount: uniform in -999,999..+999,999.
const MaxDelta = 999_999

// localShare is the probability that the account belongs to the teller's
// own branch.
const localShare = 0.85

// Draw fills in with TPC-B's input rules at scale x: a uniform teller, its
// own branch, an account of that branch with probability 0.85 and otherwise
// uniform over the other branches' accounts (always local at scale 1), and
// a uniform delta.
func Draw(rng *rand.Rand, x int64, in *Inputs) {
	in.Tid = rng.Int64N(x*TellersPerBranch) + 1
	in.Bid = (in.Tid-1)/TellersPerBranch + 1
	branch := in.Bid
	if x > 1 && rng.Float64() >= localShare {
		// A uniform branch other than the teller's own.
		branch = rng.Int64N(x-1) + 1
		if branch >= in.Bid {
			branch++
		}
	}
	in.Aid = (branch-1)*AccountsPerBranch + rng.Int64N(AccountsPerBranch) + 1
	in.Delta = rng.Int64N(2*MaxDelta+1) - MaxDelta
}

// DrawAccount picks a uniform account for the SELECT transaction.
func DrawAccount(rng *rand.Rand, x int64) int64 {
	return rng.Int64N(x*AccountsPerBranch) + 1
}
