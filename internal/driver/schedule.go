package driver

import (
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
	k     int64         // evenly spaced: this worker's starts so far
	at    time.Duration // Poisson: the last start
}

func (s *schedule) begin(start time.Duration) {
	s.start, s.k, s.at = start, 0, start
}

// next returns the next intended start.
func (s *schedule) next() time.Duration {
	if s.rnd != nil {
		perWorker := s.rate / float64(s.workers)
		s.at += time.Duration(s.rnd.ExpFloat64() / perWorker * 1e9)
		return s.at
	}
	n := s.k*int64(s.workers) + int64(s.index)
	s.k++
	return s.start + time.Duration(float64(n)*1e9/s.rate)
}
