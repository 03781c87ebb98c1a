package results

import (
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/sysinfo"
)

// Manifest says what was measured, how and on what: enough to repeat the run
// or to judge a comparison.
type Manifest struct {
	Experiment string         `json:"experiment"`
	Command    []string       `json:"command"`
	Config     map[string]any `json:"config"`
	Dbgauge    string         `json:"dbgauge_version"`
	Go         string         `json:"go_version"`
	Started    time.Time      `json:"started"`
	Finished   *time.Time     `json:"finished,omitempty"`
	Seed       uint64         `json:"seed"`
	DB         string         `json:"db"`
	Engine     dbms.Info      `json:"engine"`
	System     sysinfo.System `json:"system"`
	Notes      []string       `json:"notes,omitempty"`
	// Tags are the run's labels (tags.go), sorted: given with --tag,
	// changed afterwards with `dbgauge tag`, kept by `dbgauge resume`.
	Tags []string `json:"tags,omitempty"`
	// Instrumentation is what the engine recorded of the run's
	// sessions' statements, read from the engine: first a new session's
	// (the server's own setting, which a load's clients have), then,
	// for a run that reads the engine's own time, its timed sessions'.
	Instrumentation []Instrumentation `json:"instrumentation,omitempty"`
}

// Instrumentation is one session's statement instrumentation: Session
// names it, Settings are the engine's settings by name.
type Instrumentation struct {
	Session  string            `json:"session"`
	Settings map[string]string `json:"settings"`
}

// NewSession names a session as the server starts it: a load's
// clients, and the run's own session before it turns anything on.
const NewSession = "a new session (as the server starts it: a load's clients)"
