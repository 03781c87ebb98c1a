package mysql

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// tsvReader renders a RowSource as LOAD DATA's default text format on
// demand: the driver's Read calls pull rows one buffer at a time, in the
// goroutine that called Load, so the source is read by one goroutine and no
// more than one buffer of text exists at once.
type tsvReader struct {
	ctx  context.Context
	src  dbms.RowSource
	row  []any
	buf  []byte
	off  int
	done bool
	err  error
	rows int64 // rows handed to the server so far
}

// fill size: a few of the driver's 16 KiB packets per refill.
const tsvChunk = 64 << 10

func newTSVReader(ctx context.Context, t dbms.Table, src dbms.RowSource) *tsvReader {
	return &tsvReader{ctx: ctx, src: src, row: make([]any, len(t.Columns)), buf: make([]byte, 0, tsvChunk+4096)}
}

func (r *tsvReader) Read(p []byte) (int, error) {
	if r.off == len(r.buf) {
		if r.err != nil {
			return 0, r.err
		}
		if r.done {
			return 0, io.EOF
		}
		r.fill()
		if r.off == len(r.buf) {
			return r.Read(p)
		}
	}
	n := copy(p, r.buf[r.off:])
	r.off += n
	return n, nil
}

// fill renders rows until the buffer holds a chunk or the source ends.
func (r *tsvReader) fill() {
	r.buf, r.off = r.buf[:0], 0
	if err := r.ctx.Err(); err != nil {
		r.err = err
		return
	}
	for len(r.buf) < tsvChunk {
		clear(r.row)
		if !r.src.Next(r.row) {
			r.done = true
			return
		}
		start := len(r.buf)
		for i, v := range r.row {
			if i > 0 {
				r.buf = append(r.buf, '\t')
			}
			var err error
			if r.buf, err = appendField(r.buf, v); err != nil {
				r.err = fmt.Errorf("row %d column %d: %w", r.rows+1, i+1, err)
				r.buf = r.buf[:start] // never send half a row
				return
			}
		}
		r.buf = append(r.buf, '\n')
		r.rows++
	}
}

// appendField writes one value; text escapes the characters LOAD DATA
// treats specially (escape, field and line terminators, NUL).
func appendField(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case int32:
		return strconv.AppendInt(b, int64(x), 10), nil
	case string:
		return appendEscaped(b, x), nil
	case []byte:
		return appendEscaped(b, string(x)), nil
	case time.Time:
		return x.UTC().AppendFormat(b, timeLayout), nil
	case nil:
		// LOAD DATA's NULL; the text \N itself goes as \\N (appendEscaped).
		return append(b, '\\', 'N'), nil
	}
	return b, fmt.Errorf("unsupported value %T", v)
}

// timeLayout is how a Timestamp goes to the server: DATETIME's own text,
// with a fraction only when there is one (DATETIME keeps none; the server
// rounds it).
const timeLayout = "2006-01-02 15:04:05.999999"

func appendEscaped(b []byte, s string) []byte {
	if !strings.ContainsAny(s, "\\\t\n\x00") {
		return append(b, s...)
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			b = append(b, '\\', '\\')
		case '\t':
			b = append(b, '\\', 't')
		case '\n':
			b = append(b, '\\', 'n')
		case 0:
			b = append(b, '\\', '0')
		default:
			b = append(b, c)
		}
	}
	return b
}
