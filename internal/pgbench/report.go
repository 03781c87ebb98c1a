package pgbench

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"
)

// Counts are the transactions of a run or of one script, as pgbench
// counts them: processed (committed), skipped (-R with -L), failed by
// class, and retried.
type Counts struct {
	Processed             int64
	Skipped               int64
	SerializationFailures int64
	DeadlockFailures      int64
	// Retried transactions, and Retries in all of them.
	Retried, Retries int64
}

// Failures are the failed transactions of every class.
func (c Counts) Failures() int64 { return c.SerializationFailures + c.DeadlockFailures }

// all is what pgbench divides its percentages by: every transaction
// that ended (processed, skipped or failed).
func (c Counts) all() int64 { return c.Processed + c.Skipped + c.Failures() }

// Figures are what pgbench's final report prints: the run's settings and
// its measured figures. Times are in milliseconds, as pgbench prints them.
type Figures struct {
	Scale int
	// PartitionMethod ("range" or "hash") and Partitions describe a
	// pgbench_accounts that pgbench -i --partitions made ("" for none), as
	// pgbench finds it in the database before a run of a built-in script.
	PartitionMethod string
	Partitions      int
	Protocol        Protocol
	Clients         int
	Threads         int
	// MaxTries is --max-tries (0: unlimited).
	MaxTries uint32
	// Transactions per client (-t); 0 for a run of a Duration (-T).
	Transactions int
	Duration     time.Duration
	// The options that change what the report shows.
	FailuresDetailed bool
	Connect          bool
	PerCommand       bool
	Rate             float64
	LatencyLimit     time.Duration
	Progress         time.Duration

	Total Counts
	// LatencyLate counts the processed transactions above LatencyLimit.
	LatencyLate int64
	// LatencyAverage and LatencyStddev (ms) are over the processed
	// transactions when pgbench measures each one (-R, -P or -L);
	// otherwise LatencyAverage is the run's duration times the clients
	// over the transactions, and LatencyStddev is not shown.
	LatencyAverage, LatencyStddev float64
	// LagAverage and LagMax (ms) are the rate limit's schedule lag (-R).
	LagAverage, LagMax float64
	// ConnectionTime (ms) is the initial connection time, or with Connect
	// the average connection time.
	ConnectionTime float64
	TPS            float64
	// Scripts are the run's scripts in command-line order.
	Scripts []ScriptFigures
}

// ScriptFigures are one script's lines in the report.
type ScriptFigures struct {
	// Name is the file name or the built-in script's description.
	Name   string
	Weight int
	Counts
	TPS                           float64
	LatencyAverage, LatencyStddev float64
	// Commands are the script's commands in order (-r).
	Commands []CommandFigures
}

// CommandFigures are one command's line of the -r report.
type CommandFigures struct {
	// Text is the command's first line as pgbench shows it.
	Text string
	// LatencyAverage in ms (0 when it never ran).
	LatencyAverage    float64
	Failures, Retries int64
}

// LatencyFigures turns a latency sum and sum of squares over count
// transactions, in microseconds as pgbench accumulates them, into the
// average and standard deviation in milliseconds that it prints.
func LatencyFigures(count int64, sum, sum2 float64) (avg, stddev float64) {
	if count == 0 {
		return 0, 0
	}
	mean := sum / float64(count)
	return 0.001 * mean, 0.001 * math.Sqrt(sum2/float64(count)-mean*mean)
}

// measured says whether pgbench timed every transaction (and so prints
// the latency's average and standard deviation).
func (f *Figures) measured() bool {
	return f.Rate > 0 || f.Progress > 0 || f.LatencyLimit > 0
}

// Report writes pgbench 15's final report (its printResults) for f, byte
// for byte: the lines after "pgbench (VERSION)" on standard output.
func Report(w io.Writer, f *Figures) error {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	tt := "multiple scripts"
	if len(f.Scripts) == 1 {
		tt = f.Scripts[0].Name
	}
	p("transaction type: %s\n", tt)
	p("scaling factor: %d\n", f.Scale)
	if f.PartitionMethod != "" {
		p("partition method: %s\npartitions: %d\n", f.PartitionMethod, f.Partitions)
	}
	p("query mode: %s\n", f.Protocol)
	p("number of clients: %d\n", f.Clients)
	p("number of threads: %d\n", f.Threads)
	if f.MaxTries != 0 {
		p("maximum number of tries: %d\n", f.MaxTries)
	}
	t := f.Total
	if f.Duration <= 0 {
		p("number of transactions per client: %d\n", f.Transactions)
		p("number of transactions actually processed: %d/%d\n", t.Processed, int32(f.Transactions*f.Clients))
	} else {
		p("duration: %d s\n", int(f.Duration/time.Second))
		p("number of transactions actually processed: %d\n", t.Processed)
	}
	f.printFailures(p, "", t)
	if t.Processed+t.Skipped > 0 {
		f.printMeasures(p)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// printMeasures writes the rest of the report, which pgbench leaves out
// when no transaction was processed or skipped.
func (f *Figures) printMeasures(p func(string, ...any)) {
	t := f.Total
	all := t.all()
	if f.Rate > 0 && f.LatencyLimit > 0 {
		p("number of transactions skipped: %d (%s%%)\n", t.Skipped, cf(0, 3, pct(t.Skipped, all)))
	}
	if f.LatencyLimit > 0 {
		late := 0.0
		if t.Processed > 0 {
			late = pct(f.LatencyLate, t.Processed)
		}
		p("number of transactions above the %s ms latency limit: %d/%d (%s%%)\n",
			cf(0, 1, float64(f.LatencyLimit.Microseconds())/1000.0), f.LatencyLate, t.Processed, cf(0, 3, late))
	}
	switch {
	case f.measured():
		if t.Processed > 0 {
			p("latency average = %s ms\n", cf(0, 3, f.LatencyAverage))
			p("latency stddev = %s ms\n", cf(0, 3, f.LatencyStddev))
		}
	default:
		incl := ""
		if t.Failures() > 0 {
			incl = " (including failures)"
		}
		p("latency average = %s ms%s\n", cf(0, 3, f.LatencyAverage), incl)
	}
	if f.Rate > 0 {
		p("rate limit schedule lag: avg %s (max %s) ms\n", cf(0, 3, f.LagAverage), cf(0, 3, f.LagMax))
	}
	if f.Connect {
		p("average connection time = %s ms\n", cf(0, 3, f.ConnectionTime))
		p("tps = %s (including reconnection times)\n", cf(0, 6, f.TPS))
	} else {
		p("initial connection time = %s ms\n", cf(0, 3, f.ConnectionTime))
		p("tps = %s (without initial connection time)\n", cf(0, 6, f.TPS))
	}
	perScript := len(f.Scripts) > 1
	if !perScript && !f.PerCommand {
		return
	}
	var total int64
	for _, s := range f.Scripts {
		total += int64(s.Weight)
	}
	for i, s := range f.Scripts {
		if perScript {
			f.printScript(p, i, s, total)
		}
		if f.PerCommand {
			f.printCommands(p, s, perScript)
		}
	}
}

// printFailures writes the failed and retried transactions of the run
// (lead "") or of a script (lead " - ").
func (f *Figures) printFailures(p func(string, ...any), lead string, c Counts) {
	all := c.all()
	p("%snumber of failed transactions: %d (%s%%)\n", lead, c.Failures(), cf(0, 3, pct(c.Failures(), all)))
	if f.FailuresDetailed {
		p("%snumber of serialization failures: %d (%s%%)\n", lead, c.SerializationFailures, cf(0, 3, pct(c.SerializationFailures, all)))
		p("%snumber of deadlock failures: %d (%s%%)\n", lead, c.DeadlockFailures, cf(0, 3, pct(c.DeadlockFailures, all)))
	}
	if f.MaxTries != 1 {
		p("%snumber of transactions retried: %d (%s%%)\n", lead, c.Retried, cf(0, 3, pct(c.Retried, all)))
		p("%stotal number of retries: %d\n", lead, c.Retries)
	}
}

func (f *Figures) printScript(p func(string, ...any), i int, s ScriptFigures, totalWeight int64) {
	all := s.all()
	p("SQL script %d: %s\n", i+1, s.Name)
	p(" - weight: %d (targets %s%% of total)\n", s.Weight, cf(0, 1, pct(int64(s.Weight), totalWeight)))
	p(" - %d transactions (%s%% of total, tps = %s)\n", s.Processed, cf(0, 1, pct(s.Processed, f.Total.Processed)), cf(0, 6, s.TPS))
	f.printFailures(p, " - ", s.Counts)
	if f.Rate > 0 && f.LatencyLimit > 0 {
		p(" - number of transactions skipped: %d (%s%%)\n", s.Skipped, cf(0, 3, pct(s.Skipped, all)))
	}
	if s.Processed > 0 {
		p(" - latency average = %s ms\n", cf(0, 3, s.LatencyAverage))
		p(" - latency stddev = %s ms\n", cf(0, 3, s.LatencyStddev))
	}
}

func (f *Figures) printCommands(p func(string, ...any), s ScriptFigures, perScript bool) {
	lead, what := "", " and failures"
	if perScript {
		lead = " - "
	}
	if f.MaxTries != 1 {
		what = ", failures and retries"
	}
	p("%sstatement latencies in milliseconds%s:\n", lead, what)
	for _, c := range s.Commands {
		if f.MaxTries == 1 {
			p("   %s  %10d  %s\n", cf(11, 3, c.LatencyAverage), c.Failures, c.Text)
		} else {
			p("   %s  %10d  %10d  %s\n", cf(11, 3, c.LatencyAverage), c.Failures, c.Retries, c.Text)
		}
	}
}

// ProgressFigures are one -P line's figures over the last interval.
type ProgressFigures struct {
	// Elapsed is the time since the run started; with Timestamp, Now is
	// printed instead, as seconds since the Unix epoch.
	Elapsed   time.Duration
	Timestamp bool
	Now       time.Time
	TPS       float64
	// LatencyAverage, LatencyStddev and Lag are in ms.
	LatencyAverage, LatencyStddev, Lag float64
	Failed, Skipped, Retried, Retries  int64
	// The options that change the line.
	Rate         bool
	LatencyLimit bool
	MaxTries     uint32
}

// ProgressLine writes one of pgbench 15's -P lines (its
// printProgressReport), which pgbench writes to standard error.
func ProgressLine(w io.Writer, g ProgressFigures) error {
	var b strings.Builder
	at := cf(0, 1, g.Elapsed.Seconds()) + " s"
	if g.Timestamp {
		at = cf(0, 3, float64(g.Now.UnixMicro())/1e6) + " s"
	}
	fmt.Fprintf(&b, "progress: %s, %s tps, lat %s ms stddev %s, %d failed", at, cf(0, 1, g.TPS), cf(0, 3, g.LatencyAverage), cf(0, 3, g.LatencyStddev), g.Failed)
	if g.Rate {
		fmt.Fprintf(&b, ", lag %s ms", cf(0, 3, g.Lag))
		if g.LatencyLimit {
			fmt.Fprintf(&b, ", %d skipped", g.Skipped)
		}
	}
	if g.MaxTries != 1 {
		fmt.Fprintf(&b, ", %d retried, %d retries", g.Retried, g.Retries)
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// NewFigures starts the figures of a run of o: its settings and its
// scripts' names, weights and command texts. The runner fills in the
// counts and times (and Scale, which for a built-in script pgbench takes
// from the database's pgbench_branches).
func NewFigures(o *Options) *Figures {
	f := &Figures{
		Scale: o.Scale, Protocol: o.Protocol, Clients: o.Clients, Threads: o.Threads,
		MaxTries: o.MaxTries, Transactions: o.Transactions, Duration: o.Duration,
		FailuresDetailed: o.FailuresDetailed, Connect: o.Connect, PerCommand: o.PerCommand,
		Rate: o.Rate, LatencyLimit: o.LatencyLimit, Progress: o.Progress,
	}
	for _, s := range o.Scripts {
		sf := ScriptFigures{Name: s.Name, Weight: s.Weight}
		for _, c := range s.Commands {
			sf.Commands = append(sf.Commands, CommandFigures{Text: c.Text})
		}
		f.Scripts = append(f.Scripts, sf)
	}
	return f
}
