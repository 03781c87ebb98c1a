package results

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Latency distributions are exported as HdrHistogram interval logs
// (format version 1.3), the interchange format of HdrHistogram's own
// tools (HistogramLogProcessor, HistogramLogAnalyzer, hdr-plot) and of
// its ports: a "#[StartTime: ...]" and a "#[BaseTime: ...]" line, a legend,
// then one line per interval: [Tag=T,]start,length,max,payload, with
// start and length in seconds from the base time and the payload the
// base64 of the compressed V2 encoding of that interval's histogram.
//
// The max column is the interval's largest value divided by 10^6, the
// Java tools' default for nanosecond values (giving milliseconds); a log of
// microseconds shows seconds there. The payload carries the values
// themselves; the comment line of every log dbgauge writes names their
// unit.

// Storage test names in their log files' names.
const (
	StorageRandomRead = "random_read"
	StorageSyncWrite  = "sync_write"
)

// StorageHistogramFile names the interval log of one storage latency test
// in the run directory: "sync_write_4k.hlog", "random_read_8k.hlog".
// Values are nanoseconds.
func StorageHistogramFile(test string, blockBytes int64) string {
	return fmt.Sprintf("%s_%dk.hlog", test, blockBytes>>10)
}

// WriteHistogramLog writes hs as an HdrHistogram interval log at path,
// atomically (a temporary file, then a rename). Each histogram is one
// interval and must carry its start and end times (SetStartTimeMs,
// SetEndTimeMs) and may carry a tag (no commas or spaces: but
// HistogramLogProcessor reads only untagged intervals unless given -tag,
// so a log of one distribution is best left untagged); comment, one
// line, says what the values are and in which unit. Timestamps are written
// relative to the whole second in which the first interval starts, which
// the log's StartTime and BaseTime lines give.
func WriteHistogramLog(path string, hs []*hdr.Histogram, comment string) error {
	if len(hs) == 0 {
		return fmt.Errorf("histogram log %s: no intervals", filepath.Base(path))
	}
	base := hs[0].StartTimeMs()
	for _, h := range hs {
		base = min(base, h.StartTimeMs())
	}
	// The StartTime and BaseTime lines carry whole seconds: timestamps are
	// relative to the second the first interval started in, so that a
	// reader adding them back gets the exact times.
	base -= base % 1000
	var b bytes.Buffer
	lw := hdr.NewHistogramLogWriter(&b)
	lw.OutputComment(comment)
	lw.OutputLogFormatVersion()
	lw.OutputStartTime(base)
	lw.OutputBaseTime(base)
	lw.SetBaseTime(base)
	lw.OutputLegend()
	for i, h := range hs {
		if h.EndTimeMs() < h.StartTimeMs() {
			return fmt.Errorf("histogram log %s: interval %d ends (%d ms) before it starts (%d ms)", filepath.Base(path), i+1, h.EndTimeMs(), h.StartTimeMs())
		}
		if err := lw.OutputIntervalHistogram(h); err != nil {
			return fmt.Errorf("histogram log %s: interval %d: %w", filepath.Base(path), i+1, err)
		}
	}
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	return nil
}

// ReadHistogramLog reads the intervals of an HdrHistogram interval log, in
// order, each with its absolute start and end times (ms) and tag.
func ReadHistogramLog(path string) ([]*hdr.Histogram, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r := hdr.NewHistogramLogReader(bytes.NewReader(b))
	var out []*hdr.Histogram
	for {
		h, err := r.NextIntervalHistogram()
		if err != nil {
			return out, fmt.Errorf("%s: interval %d: %w", filepath.Base(path), len(out)+1, err)
		}
		if h == nil {
			break
		}
		out = append(out, h)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), errNoIntervals)
	}
	return out, nil
}

var errNoIntervals = errors.New("no intervals in the log")
