package mysql

import (
	"context"
	"os"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

var (
	_ dbms.ProcessReporter = (*Engine)(nil)
	_ dbms.Explainer       = (*Engine)(nil)
)

// QueryProcess is the server process (one process, a thread per
// connection): its PID from the server's pid file when dbgauge can read it
// (a server on this machine), and the connection's OS thread from
// performance_schema.threads when performance_schema is on.
func (e *Engine) QueryProcess(ctx context.Context) (dbms.Process, error) {
	var p dbms.Process
	var how []string
	if rows, err := e.QueryRows(ctx, "SELECT @@pid_file"); err == nil && len(rows) == 1 {
		if b, err := os.ReadFile(rows[0][0]); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				p.PID = pid
				how = append(how, "the server's pid file ("+rows[0][0]+")")
			}
		}
	}
	rows, err := e.QueryRows(ctx, "SELECT THREAD_OS_ID FROM performance_schema.threads WHERE PROCESSLIST_ID = CONNECTION_ID()")
	if err == nil && len(rows) == 1 {
		if tid, err := strconv.Atoi(rows[0][0]); err == nil && tid > 0 {
			p.TID = tid
			how = append(how, "the connection's thread from performance_schema.threads.THREAD_OS_ID")
		}
	}
	if p.TID == 0 {
		how = append(how, "no thread: performance_schema is off, the whole server process is the query process")
	}
	p.How = strings.Join(how, "; ")
	return p, nil
}

// Explain returns EXPLAIN's access path per table without the row
// estimates (rows, filtered), which move with the statistics.
func (e *Engine) Explain(ctx context.Context, query string) (string, error) {
	rows, err := e.QueryRows(ctx, "EXPLAIN "+query)
	if err != nil {
		return "", err
	}
	// id, select_type, table, type, possible_keys, key, key_len, ref, rows, [filtered,] Extra
	var b strings.Builder
	for _, r := range rows {
		keep := r
		if len(r) >= 10 {
			keep = append(append([]string{}, r[:8]...), r[len(r)-1])
		}
		b.WriteString(strings.Join(keep, " | "))
		b.WriteByte('\n')
	}
	return b.String(), nil
}
