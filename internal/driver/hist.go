package driver

import (
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Histogram geometry of every time the driver records: microseconds from
// 1 us to 1 hour at 3 significant digits (0.1 % resolution; docs/architecture.md asks
// for no coarser). A dense histogram of this geometry is about 190 KB; the
// per-thread copies kept in results are sparse (PackedHistogram), a few KB.
const (
	HistLowest  = 1
	HistHighest = int64(time.Hour / time.Microsecond)
	HistDigits  = 3
)

// NewHistogram returns an empty dense histogram of the driver's geometry, for
// callers that merge the driver's histograms (remote nodes, reports).
func NewHistogram() *hdr.Histogram { return hdr.New(HistLowest, HistHighest, HistDigits) }

func newPacked() *hdr.PackedHistogram { return hdr.NewPacked(HistLowest, HistHighest, HistDigits) }

// record adds d in microseconds (truncated), clamped into the histogram's
// range so that a value never gets lost: a negative d (clock oddity) counts
// as 0, anything above an hour as an hour. It does not allocate.
func record(h *hdr.Histogram, d time.Duration) {
	us := int64(d / time.Microsecond)
	if us < 0 {
		us = 0
	} else if us > HistHighest {
		us = HistHighest
	}
	_ = h.RecordValue(us) // in range by construction
}
