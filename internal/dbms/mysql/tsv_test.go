package mysql

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

type sliceRows struct{ rows [][]any }

func (s *sliceRows) Next(row []any) bool {
	if len(s.rows) == 0 {
		return false
	}
	copy(row, s.rows[0])
	s.rows = s.rows[1:]
	return true
}

func TestTSVReader(t *testing.T) {
	tbl := dbms.Table{Columns: []dbms.Column{{Name: "a", Type: dbms.BigInt}, {Name: "b", Type: dbms.Char, Len: 9}}}
	for _, c := range []struct {
		name string
		rows [][]any
		want string
		err  string
	}{
		{"plain", [][]any{{int64(-1), "x y"}, {int64(2), ""}}, "-1\tx y\n2\t\n", ""},
		{"escapes", [][]any{{int64(1), "a\tb\\c\nd\x00"}}, "1\ta\\tb\\\\c\\nd\\0\n", ""},
		{"null and ints", [][]any{{nil, []byte("z")}, {7, "q"}}, "\\N\tz\n7\tq\n", ""},
		{"bad value stops before the row", [][]any{{int64(1), "ok"}, {int64(2), 3.5}}, "1\tok\n", "row 2 column 2: unsupported value float64"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := io.ReadAll(newTSVReader(context.Background(), tbl, &sliceRows{c.rows}))
			if string(got) != c.want {
				t.Errorf("text %q, want %q", got, c.want)
			}
			if (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
				t.Errorf("error %v, want %q", err, c.err)
			}
		})
	}
}

// TestTSVReaderBounded: the reader's buffer does not grow with the row count.
func TestTSVReaderBounded(t *testing.T) {
	tbl := testTable
	r := newTSVReader(context.Background(), tbl, &genRows{n: 200_000})
	p := make([]byte, 16<<10)
	var total int
	for {
		n, err := r.Read(p)
		total += n
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if cap(r.buf) > tsvChunk+4096 {
			t.Fatalf("buffer grew to %d bytes", cap(r.buf))
		}
	}
	if r.rows != 200_000 || total < 200_000*20 {
		t.Errorf("%d rows, %d bytes", r.rows, total)
	}
}

func TestTSVReaderCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := io.ReadAll(newTSVReader(ctx, testTable, &genRows{n: 10}))
	if err != context.Canceled {
		t.Errorf("err %v, want context.Canceled", err)
	}
}
