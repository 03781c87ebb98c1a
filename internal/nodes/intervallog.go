package nodes

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbgauge/dbgauge/internal/driver"
)

// intervalLog is an agent's own HdrHistogram interval log of one job: one
// interval per cycle, synced as it is written, so what the agent measured
// survives whatever happens to the master or the network.
type intervalLog struct {
	path string
	f    *os.File
	err  error
}

// newIntervalLog opens DIR/RUN/NAME-LABEL.hlog (dir "" keeps no log).
func newIntervalLog(dir, run, name, label string) *intervalLog {
	if dir == "" {
		return &intervalLog{}
	}
	clean := strings.NewReplacer(" ", "", "/", "_").Replace(label)
	l := &intervalLog{path: filepath.Join(dir, run, fmt.Sprintf("%s-%s.hlog", name, clean))}
	if l.err = os.MkdirAll(filepath.Dir(l.path), 0o755); l.err == nil {
		l.f, l.err = os.Create(l.path)
	}
	return l
}

// write appends cycle c's residence times.
func (l *intervalLog) write(c driver.CycleResult) error {
	if l.f == nil || c.Residence == nil {
		return l.err
	}
	var b bytes.Buffer
	lw := hdr.NewHistogramLogWriter(&b)
	if st, err := l.f.Stat(); err == nil && st.Size() == 0 {
		lw.OutputComment("dbgauge agent residence times, microseconds, one interval per cycle")
		lw.OutputLogFormatVersion()
		lw.OutputStartTime(c.Start.UnixMilli())
		lw.OutputLegend()
	}
	if err := lw.OutputIntervalHistogram(c.Interval()); err != nil {
		return err
	}
	if _, err := l.f.Write(b.Bytes()); err != nil {
		return fmt.Errorf("%s: %w", l.path, err)
	}
	return l.f.Sync()
}

func (l *intervalLog) close() {
	if l.f != nil {
		l.f.Close()
	}
}
