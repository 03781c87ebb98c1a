package stats

import (
	"fmt"
	"math"
)

// Multi-user arithmetic (seed 004, IDM Performance Test 1): a master starts
// n users at once and measures the wall time T(n) until the last one ends.
// per_user = T(n) / n; thruput = n x T(1) / T(n), the work done per unit of
// time relative to one user alone, so thruput(1) = 1 and the ideal is n.
// (The seed's column note says "users divided by time"; its figures are
// time divided by users, which is what per_user is.)

// MultiuserPoint is one user count: the summary of its repetitions' wall
// times and the two derived columns. PerUser and Thruput are NaN where they
// mean nothing (no users, or no positive time).
type MultiuserPoint struct {
	Users   int
	Times   Summary  // of the (adjusted) times, ms
	CI      Interval // bootstrap interval of the median
	PerUser float64
	Thruput float64
}

// PerUser is t / users; NaN for no users.
func PerUser(t float64, users int) float64 {
	if users <= 0 {
		return math.NaN()
	}
	return t / float64(users)
}

// Thruput is users x t1 / tn: how many single-user scripts' worth of work
// the system did per T(1). One user gives exactly 1; no users, or a time
// that is not positive, gives NaN.
func Thruput(users int, t1, tn float64) float64 {
	switch {
	case users <= 0 || !(t1 > 0) || !(tn > 0):
		return math.NaN()
	case users == 1 && t1 == tn:
		return 1
	}
	return float64(users) * t1 / tn
}

// SubtractOverhead takes the harness's own time (the zero-user run) from
// each time, never below zero.
func SubtractOverhead(times []float64, overhead float64) []float64 {
	out := make([]float64, len(times))
	for i, t := range times {
		out[i] = math.Max(t-overhead, 0)
	}
	return out
}

// MultiuserPoints summarises times[i], the repetitions at users[i]: median,
// range and bootstrap interval (level, resamples, seed as BootstrapCI),
// per_user from the median, and thruput from the medians at n and at one
// user. users must contain 1 unless it holds only 0; thruput needs T(1).
func MultiuserPoints(users []int, times [][]float64, level float64, resamples int, seed uint64) ([]MultiuserPoint, error) {
	if len(users) != len(times) {
		return nil, fmt.Errorf("multiuser: %d user counts but %d sets of times", len(users), len(times))
	}
	t1 := math.NaN()
	for i, u := range users {
		if len(times[i]) == 0 {
			continue
		}
		if u == 1 {
			t1 = Median(times[i])
		}
	}
	out := make([]MultiuserPoint, 0, len(users))
	for i, u := range users {
		p := MultiuserPoint{Users: u, Times: Summarize(times[i]), PerUser: math.NaN(), Thruput: math.NaN()}
		if p.Times.N == 0 {
			p.Times.Median = math.NaN()
			p.CI = Interval{Low: math.NaN(), High: math.NaN(), Level: level, Resamples: resamples}
		} else {
			p.CI = BootstrapMedianCI(times[i], level, resamples, seed)
			p.PerUser = PerUser(p.Times.Median, u)
			p.Thruput = Thruput(u, t1, p.Times.Median)
		}
		out = append(out, p)
	}
	return out, nil
}
