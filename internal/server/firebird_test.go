package server_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/server"
)

// TestFirebirdStartStopRestart starts a private Firebird, restarts it on the
// same port, stops it, and checks its process and port are gone.
func TestFirebirdStartStopRestart(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	inst, err := server.Start(ctx, "firebird", dir, server.Options{Settings: map[string]string{"DefaultDbCachePages": "512"}})
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			inst.Stop()
		}
	}()
	want := fmt.Sprintf("firebird://sysdba:%s@127.0.0.1:%d/%s", inst.Password, inst.Port, filepath.Join(inst.Dir, "dbgauge.fdb"))
	if inst.URL != want {
		t.Errorf("URL = %q, want %q", inst.URL, want)
	}
	if !strings.Contains(inst.URL, fmt.Sprintf(":%d//", inst.Port)) {
		t.Errorf("URL %q: the database path must follow host:port as //absolute/path", inst.URL)
	}
	if _, err := os.Stat(filepath.Join(inst.Dir, "dbgauge.fdb")); err != nil {
		t.Errorf("database not created: %v", err)
	}
	conf, err := os.ReadFile(filepath.Join(inst.Dir, "root", "firebird.conf"))
	if err != nil || !strings.Contains(string(conf), "DefaultDbCachePages = 512") {
		t.Errorf("firebird.conf lacks the setting: %v\n%s", err, conf)
	}
	saved, err := server.Load(dir)
	if err != nil || saved.PID != inst.PID || saved.URL != inst.URL {
		t.Fatalf("Load = %+v, %v; want pid %d", saved, err, inst.PID)
	}

	oldPID := inst.PID
	if err := inst.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	if inst.PID == oldPID || alive(oldPID) {
		t.Errorf("restart kept process %d (now %d)", oldPID, inst.PID)
	}
	if !listening(inst.Port) {
		t.Fatalf("nothing listens on %d after restart", inst.Port)
	}

	pid := inst.PID
	if err := server.Stop("firebird", dir); err != nil {
		t.Fatal(err)
	}
	stopped = true
	if alive(pid) {
		t.Errorf("process %d still alive after stop", pid)
	}
	if listening(inst.Port) {
		t.Errorf("port %d still open after stop", inst.Port)
	}
	if _, err := server.Load(dir); err == nil {
		t.Errorf("state file kept after stop")
	}
}

func alive(pid int) bool {
	if syscall.Kill(pid, 0) == syscall.ESRCH {
		return false
	}
	// A zombie is dead for our purpose.
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}

func listening(port int) bool {
	c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}
