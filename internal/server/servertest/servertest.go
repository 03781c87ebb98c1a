// Package servertest starts private engine instances for tests and removes
// them when the test ends. A missing engine package fails the test with the
// package to install: tests never pass by skipping a real engine.
package servertest

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/server"
)

// Start starts a private instance of engine (postgres, mariadb, firebird) in a
// temporary directory and stops it at the end of the test.
func Start(t testing.TB, engine string, opt server.Options) *server.Instance {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	inst, err := server.Start(ctx, engine, t.TempDir(), opt)
	if err != nil {
		t.Fatalf("start private %s: %v", engine, err)
	}
	t.Cleanup(func() {
		if err := inst.Stop(); err != nil {
			t.Errorf("stop private %s: %v", engine, err)
		}
	})
	return inst
}

// StartCluster starts a private cluster of kind (galera; postgres: a
// primary and standbys) in a temporary directory and stops it at the end
// of the test.
func StartCluster(t testing.TB, kind string, opt server.ClusterOptions) *server.Cluster {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c, err := server.StartCluster(ctx, kind, t.TempDir(), opt)
	if err != nil {
		t.Fatalf("start private %s cluster: %v", kind, err)
	}
	t.Cleanup(func() {
		// As recorded now: a run may have crashed, failed over and
		// restarted nodes since.
		now, err := server.LoadCluster(c.Dir)
		if err != nil {
			now = c
		}
		if err := now.Stop(); err != nil {
			t.Errorf("stop private %s cluster: %v", kind, err)
		}
	})
	return c
}

// Pgbench is the path of the installed pgbench, the peer scripts are
// checked against; it fails the test, naming the package, without one.
func Pgbench(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("pgbench"); err == nil {
		return p
	}
	if found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pgbench"); len(found) > 0 {
		return found[len(found)-1]
	}
	t.Fatal("pgbench is not installed: apt-get install postgresql")
	return ""
}
