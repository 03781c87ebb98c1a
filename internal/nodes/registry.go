package nodes

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/dbgauge/dbgauge/internal/driver"
)

// Load is what an agent runs for one job: the driver configuration of its
// clients (Open, Setup, NewOp; the master sets the rest: nodes, threads,
// cycles, rate, seed), and the counters the master's checks need.
type Load struct {
	Config driver.Config
	// Counters, if set, is read after every cycle and sent with the
	// cycle's report: counts the master needs beyond the driver's (commits
	// after a cycle's end, for a consistency check). It resets them.
	Counters func() map[string]int64
	// Close, if set, runs when the job's load has ended.
	Close func()
}

// Env is what an agent's own command line changes in every job.
type Env struct {
	// DB, if set, replaces the master's database URL: the server as this
	// agent reaches it.
	DB string
}

// Builder turns a job's payload into the load an agent runs.
type Builder func(ctx context.Context, payload json.RawMessage, env Env) (*Load, error)

var (
	buildersMu sync.Mutex
	builders   = map[string]Builder{}
)

// Register makes kind a job kind agents can run. A kind registered twice
// panics (two packages claim one name).
func Register(kind string, b Builder) {
	buildersMu.Lock()
	defer buildersMu.Unlock()
	if _, dup := builders[kind]; dup {
		panic("nodes: job kind " + kind + " registered twice")
	}
	builders[kind] = b
}

func builder(kind string) (Builder, error) {
	buildersMu.Lock()
	defer buildersMu.Unlock()
	b, ok := builders[kind]
	if !ok {
		return nil, fmt.Errorf("no job kind %q (this agent knows %s)", kind, strings.Join(kinds(), ", "))
	}
	return b, nil
}

func kinds() []string {
	var ks []string
	for k := range builders {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// ConfigHash names what master and agents must share beyond their version:
// the protocol, the histogram geometry (merging needs the same buckets) and
// the job kinds. An agent whose hash differs is refused.
func ConfigHash() string {
	buildersMu.Lock()
	ks := kinds()
	buildersMu.Unlock()
	s := fmt.Sprintf("protocol=%d histogram=%d..%d/%d kinds=%s", protocol, driver.HistLowest, driver.HistHighest, driver.HistDigits, strings.Join(ks, ","))
	sum := sha256.Sum256([]byte(s))
	return fmt.Sprintf("%x", sum[:6])
}
