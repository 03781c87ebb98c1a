package nodes

import (
	"sort"
	"time"
)

// AgentStatus is one agent as the master sees it now: what the live page
// shows of remote nodes (MasterOptions.Status).
type AgentStatus struct {
	Name string
	// Status is "ready" (registered, no load running), "running",
	// "finished" (its part of the job is over), "missing" (silent for
	// Missing) or "lost" (silent for Lost: its load written off).
	Status string
	// HeartbeatAge is the time since the agent was last heard from.
	HeartbeatAge time.Duration
	// Committed is its count in the cycle running, from its heartbeats.
	Committed int64
}

// status is every agent's status, by name; under mu.
func (m *Master) status(now time.Time) []AgentStatus {
	out := make([]AgentStatus, 0, len(m.agents))
	for _, a := range m.agents {
		s := AgentStatus{Name: a.info.Name, HeartbeatAge: now.Sub(a.lastSeen), Committed: a.committed}
		switch js := m.job; {
		case a.lost:
			s.Status = "lost"
		case !a.missingAt.IsZero():
			s.Status = "missing"
		case js == nil:
			s.Status = "ready"
		case js.over:
			s.Status = "finished"
		default:
			s.Status = "running"
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// reportStatus gives MasterOptions.Status the agents' status, once a
// beat (from the beat goroutine: the callback must not block).
func (m *Master) reportStatus() {
	if m.opt.Status == nil {
		return
	}
	m.mu.Lock()
	s := m.status(time.Now())
	m.mu.Unlock()
	m.opt.Status(s)
}
