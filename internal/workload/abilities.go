package workload

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"time"

	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// The optional abilities of a workload, found by type assertion on the
// Workload.

// Procedurer is a workload with a server-side procedure form: each
// transaction as one call of a procedure in the engine's language.
type Procedurer interface {
	// Procedure is the workload's procedures on e's engine, or an error
	// saying the engine has none (wrapping nothing in particular: the
	// caller says which flag asked for it).
	Procedure(e dbms.Engine) (*Procedure, error)
}

// Procedure is a workload's transactions as server-side procedures on one
// engine: what the procedure form creates, calls and drops.
type Procedure struct {
	// Drop removes them (before the tables are dropped); Create makes them
	// (after the tables are filled): statements run in their order, so
	// that what a procedure uses (another procedure, an exception it
	// raises) is made before it and dropped after it.
	Drop, Create []string
	// Calls are what a client runs, one per transaction type in Types'
	// order, with ? placeholders.
	Calls []string
	// Default says the form is the run's default where the engine has no
	// Defect (a workload whose peers measure its procedure form); without
	// it the statements form is the default and this one runs only when
	// asked for.
	Default bool
	// Defect, when set, says why the form is not the engine's default:
	// the engine was seen to break the transaction's atomicity in it.
	Defect string
}

// Dropper is a workload that leaves objects depending on its tables (a
// procedure of an earlier run): DropFirst are the statements that remove
// them before the tables are dropped, whatever this run's form.
type Dropper interface {
	DropFirst(e dbms.Engine) []string
}

// Configurable is a workload that takes options beyond its name (a
// script workload's files and variables). The command line hands them
// over, encoded as the workload likes, before the run; the run stores them
// in its plan and sends them to its remote agents, which configure their
// own copy the same way (NewConfigured). Configure refuses what it cannot
// run: the error is the user's to fix.
type Configurable interface {
	Configure(options json.RawMessage) error
}

// Tagger is a workload whose writing transactions can carry their client's
// tag (ClientConfig.Tagged, Session.TakeTag), so that after each cycle
// every transaction acknowledged to a client is looked for: a lost write
// was acknowledged and is not there. Only the statements form tags.
type Tagger interface {
	// ReadTags reads the tags of what is committed: per client, the
	// sequence numbers found. It runs while no load runs (between
	// cycles), before Check.Cleanup removes them.
	ReadTags(ctx context.Context, e dbms.Engine) (map[int][]int64, error)
}

// Initializer is a workload whose database is made by the workload's own
// code rather than by Schema's tables (a user's init script): Init runs
// once per scale, on the control session, after Schema's tables (if any)
// are populated and before the first cycle. It drops what an earlier
// scale left itself.
type Initializer interface {
	Init(ctx context.Context, e dbms.Engine, scale int64) error
}

// Statementer is a workload whose clients time their statements
// (Session.Timer): Statements are the statements' names per type, in
// Types' order, on the engine named engine (a script may have a variant
// per engine); names are unique within a type. A run of the procedure
// form (ClientConfig.Procedure) asks for none.
type Statementer interface {
	Statements(engine string) [][]string
}

// Flagger is a workload with flags of its own on the sweep's commands
// (a script workload's --script): Flags binds them, once, on the
// command's flag set; Options encodes what they say as the options
// Configure takes, reading what they name (files) now, so that the run
// stores the options themselves. The command line binds every registered
// Flagger's flags and refuses one given with another workload. Options'
// error is the user's to fix, in one line that names the flag or the
// file:line:col.
type Flagger interface {
	Flags(fs *pflag.FlagSet)
	Options() (json.RawMessage, error)
}

// FileAnnotation marks a Flagger's flag whose values name files (FILE or
// FILE@WEIGHT), set with fs.SetAnnotation(name, FileAnnotation,
// []string{"true"}): the web interface's form offers to upload them.
const FileAnnotation = "dbgauge_file"

// Sizer is a workload whose Schema declares no tables but whose database
// has some (a script workload's init script creates its own): SizeTables
// names them on the engine named engine, so that the sweep measures the
// database's size at each scale as it does for declared tables. A name
// the engine does not know (a table made in a branch not taken) leaves
// the size unmeasured, with a note.
type Sizer interface {
	SizeTables(engine string) []string
}

// Counter is a workload whose clients count what their inputs were (an
// order-entry audit's rollbacks, remote lines, customers chosen by name),
// beside the commits the driver counts: CountNames names the counts, in
// the order of Session.Counts. The counts of every client, local or on a
// remote agent, are summed and handed to the check (Commits.Counts).
type Counter interface {
	CountNames() []string
}

// Figurer is a Check that derives figures of its own from what it read and
// counted (new orders per minute from the database's order counters, an
// audit's shares): Figures are those of the cycle Verify compared last.
type Figurer interface {
	Figures() []Figure
}

// Figure is one figure of a workload after a cycle: its value over that
// cycle and over the scale's cycles so far (the workload says how a scale
// combines its cycles: a rate's mean, an audit's share of all inputs).
// Low and High, when set, are the bounds an audit holds it to; Pass then
// says whether Scale is within them (a figure with too few inputs to
// judge yet has no bounds).
type Figure struct {
	Name  string
	Unit  string
	Cycle float64
	Scale float64
	Low   *float64
	High  *float64
}

// Pass says whether the figure is within its bounds (true when it has
// none).
func (f Figure) Pass() bool {
	return (f.Low == nil || f.Scale >= *f.Low) && (f.High == nil || f.Scale <= *f.High)
}

// Waiter is a workload whose terminals wait between transactions (an
// order-entry terminal's keying and think times, in the mode that has
// them): Waits is the pause after a transaction of type typ, drawn from
// the thread's generator, or nil when the workload as configured runs
// without waits. The driver waits outside every residence time; only the
// closed loop waits.
type Waiter interface {
	Waits() func(typ int, r *rand.Rand) time.Duration
}

// LoadPlanner is a workload that asks things of the load as a whole (an
// order-entry terminal per warehouse and ten per warehouse with waits):
// CheckLoad refuses a load it cannot be run under, before anything runs.
// The error is the user's to fix, in one line naming the flag.
type LoadPlanner interface {
	CheckLoad(l Load) error
}

// Load is the load a sweep will run: its clients over every node, the
// scales, and the open loop's rate (0: the closed loop).
type Load struct {
	Clients int
	Scales  []int64
	Rate    float64
}

// Varianter is a workload with modes that measure different things (an
// order-entry load with or without its terminals' waits): Variant names
// the one configured, and every output labels the run with it.
type Varianter interface {
	Variant() string
}
