package duckdb

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// tableMemory is what DuckDB's buffer manager holds for table data.
func tableMemory(t *testing.T, e *Engine) int64 {
	t.Helper()
	v := mustValue(t, e, "SELECT coalesce(sum(memory_usage_bytes), 0) FROM duckdb_memory() WHERE tag = 'BASE_TABLE'")
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestFlushCacheReopensFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "flush.db")
	e := openURL(t, "duckdb:"+path+"?threads=2")
	ctx := context.Background()
	loadTable(t, e)
	// Text that does not compress, so the scan pulls many blocks in.
	mustExec(t, e, "CREATE TABLE wide AS SELECT range AS id, md5(range::VARCHAR) || md5((range + 1)::VARCHAR) AS s FROM range(20000)")
	mustExec(t, e, "CHECKPOINT")
	mustValue(t, e, "SELECT count(DISTINCT s) FROM wide")
	before := tableMemory(t, e)
	// A global setting belongs to the database instance: it is gone only if
	// the instance, and with it the buffer manager, was really replaced.
	mustExec(t, e, "SET GLOBAL threads = 1")
	if got := mustValue(t, e, "SELECT current_setting('threads')"); got != "1" {
		t.Fatalf("SET GLOBAL threads = 1: threads = %s", got)
	}

	done, notDone, err := e.FlushCache(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != 1 || !strings.Contains(done[0], path) {
		t.Errorf("done = %q", done)
	}
	if len(notDone) != 1 || !strings.Contains(notDone[0], "page cache") {
		t.Errorf("notDone = %q", notDone)
	}
	after := tableMemory(t, e)
	t.Logf("table memory: %d bytes before flush, %d after", before, after)
	if after >= before {
		t.Errorf("table memory %d bytes before flush, %d after: not emptied", before, after)
	}
	if got := mustValue(t, e, "SELECT current_setting('threads')"); got != "2" {
		t.Errorf("threads = %s after reopen, want the URL's 2: same instance", got)
	}
	// The Engine keeps working, on the same data.
	if got := mustValue(t, e, "SELECT count(*) FROM tenk"); got != strconv.Itoa(testRows) {
		t.Errorf("count after flush = %s", got)
	}
	if _, err := e.Exec(ctx, "INSERT INTO tenk VALUES (-1, -1, 'x')"); err != nil {
		t.Errorf("insert after flush: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Errorf("close after flush: %v", err)
	}
	if sessions.count(path) != 0 {
		t.Errorf("sessions left open on %s: %d", path, sessions.count(path))
	}
}

func TestFlushCacheNotPossible(t *testing.T) {
	ctx := context.Background()
	mem := openURL(t, "duckdb::memory:")
	done, notDone, err := mem.FlushCache(ctx)
	if err != nil || len(done) != 0 || len(notDone) != 1 || !strings.Contains(notDone[0], "in-memory") {
		t.Errorf("in-memory: done %q, notDone %q, err %v", done, notDone, err)
	}

	a, path := openFile(t)
	mustExec(t, a, "CREATE TABLE k (x INTEGER)")
	b := openURL(t, "duckdb:"+path)
	done, notDone, err = a.FlushCache(ctx)
	if err != nil || len(done) != 0 || len(notDone) == 0 || !strings.Contains(notDone[0], "1 other sessions") {
		t.Errorf("shared file: done %q, notDone %q, err %v", done, notDone, err)
	}
	// Once the other session is gone, the flush happens.
	b.Close()
	done, _, err = a.FlushCache(ctx)
	if err != nil || len(done) != 1 {
		t.Errorf("after other session closed: done %q, err %v", done, err)
	}
	mustValue(t, a, "SELECT count(*) FROM k")
}
