package duckdb

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

func TestOpenErrorsAreBadInput(t *testing.T) {
	dir := t.TempDir()
	notDuck := filepath.Join(dir, "text.db")
	if err := os.WriteFile(notDuck, []byte(strings.Repeat("not a database\n", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, url, want string }{
		{"missing directory", "duckdb:" + dir + "/no/such/dir/x.db", "directory " + dir + "/no/such/dir does not exist"},
		{"bad setting value", "duckdb:" + dir + "/a.db?threads=many", `invalid DuckDB setting "threads=many"`},
		{"unknown setting", "duckdb:" + dir + "/b.db?no_such_option=1", "no_such_option"},
		{"not a DuckDB file", "duckdb:" + notDuck, "cannot open DuckDB file " + notDuck},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := dbms.Open(context.Background(), tc.url)
			if err == nil {
				e.Close()
				t.Fatal("opened")
			}
			if dbms.Classify(err) != dbms.BadInput {
				t.Errorf("class = %v, want bad_input: %v", dbms.Classify(err), err)
			}
			if !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q: want one line containing %q", err, tc.want)
			}
		})
	}
}

// Sessions of one process on one file share a DuckDB instance, so they must
// agree on its settings.
func TestOpenSameFileOtherSettings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "same.db")
	openURL(t, "duckdb:"+path+"?threads=2")
	e, err := dbms.Open(context.Background(), "duckdb:"+path+"?threads=1")
	if err == nil {
		e.Close()
		t.Fatal("opened with other settings")
	}
	if dbms.Classify(err) != dbms.BadInput || !strings.Contains(err.Error(), "same URL settings") {
		t.Errorf("err = %v (class %v)", err, dbms.Classify(err))
	}
	// The same URL shares the instance.
	openURL(t, "duckdb:"+path+"?threads=2")
}

func TestRuntimeErrorClasses(t *testing.T) {
	e, _ := openFile(t)
	ctx := context.Background()
	for _, q := range []string{"SELEC 1", "SELECT nosuch FROM range(3)", "SELECT * FROM no_such_table"} {
		if _, err := e.Exec(ctx, q); dbms.Classify(err) != dbms.Syntax {
			t.Errorf("%s: class %v, want syntax: %v", q, dbms.Classify(err), err)
		}
		if _, err := e.QueryRows(ctx, q); dbms.Classify(err) != dbms.Syntax {
			t.Errorf("QueryRows %s: class %v, want syntax", q, dbms.Classify(err))
		}
		if _, err := e.QueryCount(ctx, q); dbms.Classify(err) != dbms.Syntax {
			t.Errorf("QueryCount %s: class %v, want syntax", q, dbms.Classify(err))
		}
	}
	// Misuse of transactions is not a retryable conflict.
	mustExec(t, e, "BEGIN")
	if _, err := e.Exec(ctx, "BEGIN"); err == nil || dbms.Classify(err).Retryable() {
		t.Errorf("nested BEGIN: err %v, class %v", err, dbms.Classify(err))
	}
	mustExec(t, e, "ROLLBACK")
}

// Two sessions updating the same row: the second gets a write-write conflict.
func TestConflict(t *testing.T) {
	a, path := openFile(t)
	mustExec(t, a, "CREATE TABLE acct (id INTEGER, bal BIGINT)")
	mustExec(t, a, "INSERT INTO acct VALUES (1, 0)")
	b := openURL(t, "duckdb:"+path)
	mustExec(t, a, "BEGIN")
	mustExec(t, a, "UPDATE acct SET bal = bal + 1 WHERE id = 1")
	mustExec(t, b, "BEGIN")
	_, err := b.Exec(context.Background(), "UPDATE acct SET bal = bal + 2 WHERE id = 1")
	if dbms.Classify(err) != dbms.Serialization {
		t.Errorf("concurrent update: class %v, want serialization: %v", dbms.Classify(err), err)
	}
	mustExec(t, b, "ROLLBACK")
	mustExec(t, a, "COMMIT")
	if got := mustValue(t, b, "SELECT bal FROM acct"); got != "1" {
		t.Errorf("bal = %s, want 1", got)
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"953.6 MiB", 999922073}, // 953.6 * 2^20, truncated
		{"256.0 MiB", 256 << 20},
		{"1.5 GiB", 3 << 29},
		{"1.0 GB", 1e9},
		{"0 bytes", 0},
		{"262144", 262144},
		{"12 KiB", 12 << 10},
	}
	for _, tc := range tests {
		got, err := parseSize(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "lots", "1.0 parsecs", "-1 GiB"} {
		if _, err := parseSize(bad); err == nil {
			t.Errorf("parseSize(%q): no error", bad)
		}
	}
}
