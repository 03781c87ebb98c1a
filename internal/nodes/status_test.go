package nodes

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/driver"
)

// TestStatusReportsAgents: MasterOptions.Status hears, about every beat,
// each agent by name with its status (ready before the job, running
// during it, finished after) and the age of its last heartbeat.
func TestStatusReportsAgents(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	url := testDB(t)
	var mu sync.Mutex
	seen := map[string]map[string]bool{} // status -> agent names
	m, err := NewMaster(MasterOptions{Listen: Listen{Addr: "127.0.0.1:0"}, Agents: 2, Version: "test",
		Log: func(f string, a ...any) { t.Logf("master: %s", fmt.Sprintf(f, a...)) },
		Status: func(as []AgentStatus) {
			mu.Lock()
			defer mu.Unlock()
			for _, a := range as {
				if a.HeartbeatAge < 0 || a.HeartbeatAge > Lost {
					t.Errorf("agent %s: heartbeat age %v", a.Name, a.HeartbeatAge)
				}
				if seen[a.Status] == nil {
					seen[a.Status] = map[string]bool{}
				}
				seen[a.Status][a.Name] = true
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	errs := startAgents(t, ctx, m.URL, "test", "a", "b")
	if err := m.WaitAgents(ctx, 20*time.Second); err != nil {
		t.Fatal(err)
	}
	// The job lasts several beats, so that the status is reported while it runs.
	cfg := driver.Config{Threads: 1, Cycles: 1, Duration: 3 * beat, Seed: 1}
	if _, err := m.Run(ctx, Job{Kind: testKind, Payload: testPayload{URL: url}, Label: "scale 1"}, cfg); err != nil {
		t.Fatal(err)
	}
	// A beat after the job says the agents' part is over: waited for,
	// within a bound far above a beat.
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(beat / 4) {
		mu.Lock()
		over := seen["finished"]["a"] && seen["finished"]["b"]
		mu.Unlock()
		if over {
			break
		}
	}
	closeAgents(t, m, errs, 2)
	mu.Lock()
	defer mu.Unlock()
	for _, st := range []string{"running", "finished"} {
		if !seen[st]["a"] || !seen[st]["b"] {
			t.Errorf("status %q seen for %v, want a and b (all: %v)", st, seen[st], seen)
		}
	}
}
