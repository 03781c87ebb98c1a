package driver

import (
	"bufio"
	"io"
	"strconv"
	"time"
)

// Raw times are text lines, one per trial counted in a cycle, after a header:
//
//	# cycle node thread start_unix_us residence_us ok
//	1 0 3 1767225600123456 1834 1
//
// ok is 1 for a committed transaction (its residence time, from the start of
// its first attempt) and 0 for a failed trial (that attempt's time, rollback
// included). Lines of one thread are in order; threads interleave by buffer.
const rawHeader = "# cycle node thread start_unix_us residence_us ok\n"

// rawBatch is how many records a worker fills before handing them over.
const rawBatch = 4096

type rawRecord struct {
	start, dur   time.Duration // start on the run's clock
	node, thread int32
	cycle        int32
	ok           bool
}

// rawBuffer is a worker's current batch. Full batches go to the writer
// goroutine, which hands empty ones back: a worker waits only when the
// writer is a whole pool of batches behind.
type rawBuffer struct {
	w     *rawWriter
	recs  []rawRecord
	cycle int
}

func (b *rawBuffer) add(w *worker, start, dur time.Duration, ok bool) {
	b.recs = append(b.recs, rawRecord{start: start, dur: dur, node: int32(w.node), thread: int32(w.thread), cycle: int32(b.cycle), ok: ok})
	if len(b.recs) == cap(b.recs) {
		b.flush()
	}
}

// flush hands over the batch, also when partial (at the end of a cycle).
func (b *rawBuffer) flush() {
	if len(b.recs) == 0 {
		return
	}
	b.w.full <- b.recs
	b.recs = <-b.w.free
}

// rawWriter formats batches into out in its own goroutine.
type rawWriter struct {
	out  *bufio.Writer
	base time.Time
	full chan []rawRecord
	free chan []rawRecord
	done chan error
}

// newRawWriter starts the writer with a pool of two batches per worker.
func newRawWriter(out io.Writer, base time.Time, workers int) *rawWriter {
	rw := &rawWriter{
		out:  bufio.NewWriterSize(out, 1<<16),
		base: base,
		full: make(chan []rawRecord, 2*workers),
		free: make(chan []rawRecord, 2*workers),
		done: make(chan error, 1),
	}
	for range 2 * workers {
		rw.free <- make([]rawRecord, 0, rawBatch)
	}
	go rw.loop()
	return rw
}

func (rw *rawWriter) buffer() *rawBuffer { return &rawBuffer{w: rw, recs: <-rw.free} }

func (rw *rawWriter) loop() {
	// A bufio.Writer keeps its first error and returns it from Flush.
	rw.out.WriteString(rawHeader)
	baseUs := rw.base.UnixMicro()
	line := make([]byte, 0, 96)
	for recs := range rw.full {
		for _, r := range recs {
			line = strconv.AppendInt(line[:0], int64(r.cycle), 10)
			line = append(line, ' ')
			line = strconv.AppendInt(line, int64(r.node), 10)
			line = append(line, ' ')
			line = strconv.AppendInt(line, int64(r.thread), 10)
			line = append(line, ' ')
			line = strconv.AppendInt(line, baseUs+r.start.Microseconds(), 10)
			line = append(line, ' ')
			line = strconv.AppendInt(line, r.dur.Microseconds(), 10)
			if r.ok {
				line = append(line, " 1\n"...)
			} else {
				line = append(line, " 0\n"...)
			}
			rw.out.Write(line)
		}
		rw.free <- recs[:0]
	}
	rw.done <- rw.out.Flush()
}

// close waits for every handed-over batch to be written.
func (rw *rawWriter) close() error {
	close(rw.full)
	return <-rw.done
}
