package driver

import (
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// secondHist is one worker's residence times of the second running, from
// which Progress tells the live p50, p95 and p99. The worker records into
// cur under a mutex of its own: uncontended but for the one moment a
// second when the progress goroutine swaps cur for spare, so a commit
// costs an uncontended lock and no allocation (TestDriverAllocations
// runs with Progress too). A shared histogram would put a contended lock
// on every commit; reading the cycle's own histograms would race with
// the worker, which owns them until the cycle ends.
type secondHist struct {
	mu  sync.Mutex
	cur *hdr.Histogram
	// spare is touched only by the progress goroutine (and by reset,
	// while no worker runs).
	spare *hdr.Histogram
}

// liveDigits is the precision of the live percentiles: 1 %, plenty for a
// figure on a page that changes every second, and a seventh of the
// memory of the driver's 3 digits (27 KB against 188 KB; two per worker, and a run
// may have thousands of workers). The results never come from these.
const liveDigits = 2

// newLiveHistogram is an empty histogram of the live percentiles.
func newLiveHistogram() *hdr.Histogram { return hdr.New(HistLowest, HistHighest, liveDigits) }

func newSecondHist() *secondHist {
	return &secondHist{cur: newLiveHistogram(), spare: newLiveHistogram()}
}

// record adds one residence time; the worker's goroutine calls it.
func (s *secondHist) record(d time.Duration) {
	s.mu.Lock()
	record(s.cur, d)
	s.mu.Unlock()
}

// takeInto moves the times recorded since the last call into h: the
// worker goes on into the emptied spare meanwhile.
func (s *secondHist) takeInto(h *hdr.Histogram) {
	s.mu.Lock()
	full := s.cur
	s.cur = s.spare
	s.mu.Unlock()
	h.Merge(full)
	full.Reset()
	s.spare = full
}

// reset forgets what the last cycle left, while no worker runs.
func (s *secondHist) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cur.Reset()
	s.spare.Reset()
}
