package server

import (
	"context"
	"slices"
	"testing"
	"time"
)

// TestPrivateServersUninstrumented: a private server runs a new session
// without statement instrumentation, after a restart too, while what a
// session needs to turn it on for itself is there (PostgreSQL:
// pg_stat_statements loaded, tracking nothing; MariaDB: performance_schema
// and its statement consumers on, no session instrumented).
func TestPrivateServersUninstrumented(t *testing.T) {
	for _, tc := range []struct {
		engine string
		query  func(t *testing.T, inst *Instance, qs ...string) []string
		qs     []string
		want   []string
	}{
		{"postgres", func(t *testing.T, inst *Instance, qs ...string) []string { return pgQuery(t, inst.URL, qs...) },
			[]string{"SHOW shared_preload_libraries", "SHOW pg_stat_statements.track", "SHOW pg_stat_statements.track_planning"},
			[]string{"pg_stat_statements", "none", "off"}},
		{"mariadb", func(t *testing.T, inst *Instance, qs ...string) []string { return mariaQuery(t, inst, qs...) },
			[]string{"SELECT @@performance_schema",
				"SELECT GROUP_CONCAT(ENABLED ORDER BY NAME) FROM performance_schema.setup_consumers WHERE NAME IN ('events_statements_current', 'events_statements_history')",
				"SELECT CONCAT(INSTRUMENTED, ' ', HISTORY) FROM performance_schema.threads WHERE PROCESSLIST_ID = CONNECTION_ID()"},
			[]string{"1", "YES,YES", "NO NO"}},
	} {
		t.Run(tc.engine, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			inst, err := Start(ctx, tc.engine, t.TempDir(), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer inst.Stop()
			if got := tc.query(t, inst, tc.qs...); !slices.Equal(got, tc.want) {
				t.Errorf("%q = %q, want %q", tc.qs, got, tc.want)
			}
			if err := inst.Restart(ctx); err != nil {
				t.Fatal(err)
			}
			if got := tc.query(t, inst, tc.qs...); !slices.Equal(got, tc.want) {
				t.Errorf("after a restart: %q = %q, want %q", tc.qs, got, tc.want)
			}
		})
	}
}
