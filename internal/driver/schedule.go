package driver

import (
	"math"
	"math/rand/v2"
	"time"
)

// schedule yields one worker's intended start times in the open loop, as
// offsets on the run's clock.
//
// Evenly spaced (the default): the k-th start of the whole run, over all W
// workers, is at k/Rate after the cycle start, and worker i takes k = i,
// i+W, i+2W, ...; a cycle of duration D thus holds exactly ceil(Rate x D)
// intended starts, whatever the machine does. Poisson: each worker draws
// exponential gaps of mean W/Rate, which together form a Poisson process of
// rate Rate, as pgbench -R does.
//
// A start is intended, not actual: a worker still busy at its intended start
// starts late and the lateness is recorded (schedule lag), and the response
// time runs from the intended start, so a slow engine cannot hide its
// slowness by slowing the schedule (no coordinated omission).
type schedule struct {
	rate    float64 // per second, all workers
	workers int
	index   int
	rnd     *rand.Rand // Poisson only

	start time.Duration
	k     int64   // evenly spaced: this worker's starts so far
	at    float64 // Poisson: the last start, in nanoseconds on the run's clock (no rounding of the gaps)
}

func (s *schedule) begin(start time.Duration) {
	s.start, s.k, s.at = start, 0, float64(start)
}

// next returns the next intended start.
func (s *schedule) next() time.Duration {
	if s.rnd != nil {
		s.at += s.rnd.ExpFloat64() / s.perWorker()
		return time.Duration(s.at)
	}
	t := s.even(s.k)
	s.k++
	return t
}

// perWorker is one worker's rate per nanosecond.
func (s *schedule) perWorker() float64 { return s.rate / float64(s.workers) / 1e9 }

// even is this worker's k-th evenly spaced start.
func (s *schedule) even(k int64) time.Duration {
	n := k*int64(s.workers) + int64(s.index)
	return s.start + time.Duration(float64(n)*1e9/s.rate)
}

// poissonDraws is the expected number of starts up to which skip draws
// them one by one; above it, it draws their number at once.
const poissonDraws = 1 << 14

// skip passes over every intended start before end that next has not yet
// returned and returns their number: the starts a worker behind schedule
// at the end of a cycle has missed. It takes constant time whatever the
// rate (a rate the clients cannot meet would otherwise leave Rate x D
// starts to visit one by one).
func (s *schedule) skip(end time.Duration) int64 {
	if s.rnd != nil {
		// The process is memoryless: the number of arrivals in (at, end)
		// is Poisson with mean perWorker x (end - at).
		mean := s.perWorker() * (float64(end) - s.at)
		if mean <= 0 {
			return 0
		}
		if mean <= poissonDraws {
			var n int64
			for s.next() < end {
				n++
			}
			return n
		}
		// A Poisson count of mean above 2^14 is normal to within 1/128 of
		// a standard deviation.
		s.at = float64(end)
		return max(0, int64(math.Round(mean+math.Sqrt(mean)*s.rnd.NormFloat64())))
	}
	// Every n with start + n/Rate < end is a start: ceil(Rate x (end -
	// start)) of them over all workers, this worker's n = index + kW. The
	// estimate is corrected against even itself, so skip yields exactly
	// the starts next would have.
	total := math.Ceil(float64(end-s.start) * s.rate / 1e9)
	k := int64(math.Ceil((total - float64(s.index)) / float64(s.workers)))
	k = max(k, s.k)
	for k > s.k && s.even(k-1) >= end {
		k--
	}
	for s.even(k) < end {
		k++
	}
	n := k - s.k
	s.k = k
	return n
}
