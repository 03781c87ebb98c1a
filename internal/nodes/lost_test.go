package nodes

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/driver"
)

// TestAgentLostBetweenJobs: an agent that goes silent between two jobs
// (while a master populates the next scale) is lost before the next
// job. By default that job fails at once, naming the agent and the job;
// a master that tolerates the loss runs the job on the survivor, every
// cycle flagged, and the agent's events place the loss after the first
// job, not in its last cycle.
func TestAgentLostBetweenJobs(t *testing.T) {
	for _, tolerate := range []bool{false, true} {
		t.Run(fmt.Sprintf("tolerate=%v", tolerate), func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			url := testDB(t)
			m, err := NewMaster(MasterOptions{Listen: Listen{Addr: "127.0.0.1:0"}, Agents: 2, Version: "test", TolerateLoss: tolerate,
				Log: func(f string, a ...any) { t.Logf("master: %s", fmt.Sprintf(f, a...)) }})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close("")
			startAgents(t, ctx, m.URL, "test", "a")
			bctx, stopB := context.WithCancel(ctx)
			errB := startAgents(t, bctx, m.URL, "test", "b")
			if err := m.WaitAgents(ctx, 20*time.Second); err != nil {
				t.Fatal(err)
			}
			cfg := driver.Config{Threads: 1, Cycles: 2, Duration: 200 * time.Millisecond, Seed: 1}
			job := func(label string) Job { return Job{Kind: testKind, Payload: testPayload{URL: url}, Label: label} }
			if _, err := m.Run(ctx, job("scale 1"), cfg); err != nil {
				t.Fatal(err)
			}
			stopB()
			<-errB
			for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
				if m.Agents()[1].Status == "lost" {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("agent b not lost a minute after it stopped: %+v", m.Agents()[1])
				}
			}
			out, err := m.Run(ctx, job("scale 2"), cfg)
			if !tolerate {
				if !errors.Is(err, ErrNodeLost) || !strings.Contains(err.Error(), "agent b ") || !strings.Contains(err.Error(), "before scale 2") {
					t.Errorf("run after the loss: %v; want agent b lost before scale 2", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Nodes) != 2 {
				t.Fatalf("%d cycles, want 2", len(out.Nodes))
			}
			for _, cn := range out.Nodes {
				if len(cn.Nodes) != 1 || cn.Nodes[0].Name != "a" || !strings.Contains(cn.Flag, "agent b lost before scale 2") {
					t.Errorf("cycle %d: nodes %+v, flag %q: want a alone, flagged", cn.Cycle, cn.Nodes, cn.Flag)
				}
			}
			if ev := strings.Join(m.Agents()[1].Events, "\n"); !strings.Contains(ev, "after scale 1: lost") || strings.Contains(ev, "cycle") {
				t.Errorf("agent b's events %q: want lost after scale 1, in no cycle", ev)
			}
		})
	}
}
