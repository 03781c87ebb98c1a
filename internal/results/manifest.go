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
}
