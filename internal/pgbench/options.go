// Package pgbench is dbgauge's compatibility with pgbench 15: its command
// line parsed and checked exactly as pgbench's getopt_long and main() do
// (Parse), its report text printed byte for byte from plain figures
// (Report, ProgressLine; Compute and ProgressBetween turn accumulated
// measures into their figures), its -i initialisation of the pgbench_*
// tables on every engine through the engine's bulk path (Init), and the
// vacuum pgbench does before a run unless -n (BeforeRun).
//
// It never runs a benchmark: the load machinery takes an Options and gives
// back the measures the printers format. Apart from Init and BeforeRun it
// never touches an engine.
package pgbench

import (
	"time"

	"github.com/dbgauge/dbgauge/internal/workload/script/parse"
)

// Mode is what a command line asks for.
type Mode int

const (
	// Run is a benchmark run (pgbench without -i).
	Run Mode = iota
	// Initialize is -i: create and fill the pgbench_* tables.
	Initialize
	// ListBuiltins is "-b list": print the built-in scripts and stop.
	ListBuiltins
	// ShowScript is --show-script NAME: print a built-in script and stop.
	ShowScript
	// Help is --help or -? as the first argument.
	Help
	// Version is --version or -V as the first argument.
	Version
)

// Protocol is -M: how a client submits its queries.
type Protocol string

// pgbench's three query modes, in its order (-M).
const (
	Simple   Protocol = "simple"
	Extended Protocol = "extended"
	Prepared Protocol = "prepared"
)

// ScriptSpec is one -f, -b, -S or -N as given, in command-line order.
type ScriptSpec struct {
	// Builtin: Name is a built-in script's full name (tpcb-like, ...).
	Builtin bool
	// Name is the file (-f) or the built-in script's name.
	Name   string
	Weight int
}

// Define is one -D NAME=VALUE.
type Define struct{ Name, Value string }

// Options is a checked pgbench command line. Zero values mean what they
// mean to pgbench: no rate limit, no latency limit, no progress report.
type Options struct {
	Mode Mode
	// DB is the engine URL, as dbgauge's --db takes it: the last operand,
	// or a PostgreSQL URL made from -h, -p, -U and a plain database name.
	DB string

	// Benchmarking.
	Clients int // -c, default 1
	// Threads is -j, lowered to Clients as pgbench does.
	Threads int
	// Transactions is -t per client (default 10 when no -T); 0 with -T.
	Transactions int
	// Duration is -T; 0 with -t.
	Duration time.Duration
	// Specs are the scripts as given; Scripts the same scripts parsed,
	// each with its weight (the default tpcb-like when none is given).
	Specs   []ScriptSpec
	Scripts []*parse.Script
	// TotalWeight is the sum of the scripts' weights (above 0).
	TotalWeight int64
	// PerScript: pgbench reports per script (more than one script).
	PerScript bool
	Protocol  Protocol
	// Rate is -R in transactions per second over all clients.
	Rate float64
	// LatencyLimit is -L.
	LatencyLimit time.Duration
	Defines      []Define
	// PerCommand is -r.
	PerCommand bool
	// Progress is -P; ProgressTimestamp --progress-timestamp.
	Progress          time.Duration
	ProgressTimestamp bool
	// Scale is -s (default 1); ScaleGiven says it was given.
	Scale      int
	ScaleGiven bool
	// NoVacuum is -n; VacuumAll -v.
	NoVacuum, VacuumAll bool
	// Seed is --random-seed (or $PGBENCH_RANDOM_SEED) when SeedGiven:
	// SeedSource is "time", "rand" or the number as given; Seed the number.
	SeedGiven  bool
	SeedSource string
	Seed       uint64
	// MaxTries is --max-tries (default 1; 0: unlimited, bounded by -L or -T).
	MaxTries         uint32
	FailuresDetailed bool
	VerboseErrors    bool
	// Connect is -C: a new connection for each transaction.
	Connect bool
	Debug   bool

	// Transaction logs (-l): parsed and checked, not written (see Check).
	Log               bool
	LogPrefix         string
	AggregateInterval time.Duration
	SamplingRate      float64

	// Initialisation (-i).
	InitSteps      string // default "dtgvp", -n removes v, --foreign-keys adds f
	FillFactor     int    // -F, default 100
	ForeignKeys    bool
	UnloggedTables bool
	Quiet          bool
	Partitions     int
	// PartitionMethod is "range" or "hash" ("" without --partitions).
	PartitionMethod string
	Tablespace      string
	IndexTablespace string

	// ShowScript is the built-in script --show-script names.
	ShowScript string
}

// DefaultInitSteps are pgbench's -I default: drop, create tables, generate
// data on the client, vacuum, primary keys.
const DefaultInitSteps = "dtgvp"

// allInitSteps are the step letters -I takes (a space is skipped).
const allInitSteps = "dtgGvpf"
