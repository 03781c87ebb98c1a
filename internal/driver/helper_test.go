package driver

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
	_ "github.com/dbgauge/dbgauge/internal/dbms/sqlite"
)

// sqliteDB creates an SQLite file in t.TempDir() with a table t(thread,
// input) and returns an Open for Config plus a counter of opened sessions.
// WAL and a busy timeout let several threads write one after the other.
func sqliteDB(t testing.TB) (open func(context.Context, *Session) (dbms.Engine, error), opens *atomic.Int64, url string) {
	t.Helper()
	url = "sqlite:" + filepath.Join(t.TempDir(), "t.db") + "?_journal_mode=WAL&_busy_timeout=10000"
	ctx := context.Background()
	e, err := dbms.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Exec(ctx, "CREATE TABLE t (thread INTEGER, input INTEGER)"); err != nil {
		t.Fatal(err)
	}
	opens = new(atomic.Int64)
	open = func(ctx context.Context, _ *Session) (dbms.Engine, error) {
		opens.Add(1)
		return dbms.Open(ctx, url)
	}
	return open, opens, url
}

// rows counts the rows of t.
func rows(t testing.TB, url string) int64 {
	t.Helper()
	e, err := dbms.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	r, err := e.QueryRows(context.Background(), "SELECT count(*) FROM t")
	if err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.ParseInt(r[0][0], 10, 64)
	return n
}

// insert inserts one row in a transaction and fails (rolled back, nothing
// inserted) when fail is set. With a Transactor the failed transaction is
// left open for the driver to roll back; without one the op rolls back
// itself, as Op's contract asks.
func insert(ctx context.Context, s *Session, input int64, fail bool) error {
	if s.Tx != nil {
		if err := s.Tx.Begin(ctx, dbms.ReadCommitted); err != nil {
			return err
		}
		if _, err := s.Tx.ExecArgs(ctx, "INSERT INTO t VALUES (?, ?)", s.Thread, input); err != nil {
			return err
		}
		if fail {
			return fmt.Errorf("test: planned failure")
		}
		return s.Tx.Commit(ctx)
	}
	if _, err := s.Engine.Exec(ctx, "BEGIN"); err != nil {
		return err
	}
	if _, err := s.Engine.Exec(ctx, fmt.Sprintf("INSERT INTO t VALUES (%d, %d)", s.Thread, input)); err != nil {
		s.Engine.Exec(ctx, "ROLLBACK")
		return err
	}
	if fail {
		s.Engine.Exec(ctx, "ROLLBACK")
		return fmt.Errorf("test: planned failure")
	}
	_, err := s.Engine.Exec(ctx, "COMMIT")
	return err
}

// rawLine is one parsed line of RawTimes.
type rawLine struct {
	cycle, node, thread int
	start, micros       int64
	ok                  bool
}

func parseRaw(t *testing.T, b *bytes.Buffer) []rawLine {
	t.Helper()
	sc := bufio.NewScanner(b)
	var out []rawLine
	first := true
	for sc.Scan() {
		if first {
			if sc.Text()+"\n" != rawHeader {
				t.Fatalf("raw header %q", sc.Text())
			}
			first = false
			continue
		}
		f := strings.Fields(sc.Text())
		if len(f) != 6 {
			t.Fatalf("raw line %q", sc.Text())
		}
		var v [6]int64
		for i, s := range f {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				t.Fatalf("raw line %q: %v", sc.Text(), err)
			}
			v[i] = n
		}
		out = append(out, rawLine{int(v[0]), int(v[1]), int(v[2]), v[3], v[4], v[5] == 1})
	}
	return out
}
