package results

import (
	"time"

	"github.com/dbgauge/dbgauge/internal/timing"
)

// The journal's entries, one type per kind (the line's "type"). A result
// kept in results.json is journalled as it is; the others are the
// measurement of one operation. The JSON keys are those the journal has
// always had (the fields are in the order of their keys, as the maps that
// wrote them before sorted them), so old journals read the same.

// JournalWarning ("warning") is a warning of any experiment, as printed.
type JournalWarning string

// WisconsinExecution ("execution") is one timed repetition of a Wisconsin
// query; Error is "" when it succeeded. Interrupted marks an execution
// that Ctrl-C or SIGTERM stopped: its MS and Rows are no measurement.
type WisconsinExecution struct {
	Destination  string  `json:"destination"`
	Error        string  `json:"error"`
	ExpectedRows int64   `json:"expected_rows"`
	Interrupted  bool    `json:"interrupted,omitempty"`
	MS           float64 `json:"ms"`
	Organization string  `json:"organization"`
	Query        int     `json:"query"`
	Rep          int     `json:"rep"`
	Rows         int64   `json:"rows"`
	Size         int64   `json:"size"`
	TimedOut     bool    `json:"timed_out"`
}

// ABExecution ("execution") is one execution of an A/B test: Kind "warmup"
// (untimed) or "pair", Pair its number, Variant "A" or "B".
type ABExecution struct {
	Cache        string  `json:"cache"`
	Error        string  `json:"error"`
	ExpectedRows int64   `json:"expected_rows"`
	Kind         string  `json:"kind"`
	MS           float64 `json:"ms"`
	Pair         int     `json:"pair"`
	Query        string  `json:"query"`
	Rows         int64   `json:"rows"`
	Variant      string  `json:"variant"`
}

// ABLoadEntry ("load") is the load of one relation of an A/B variant.
type ABLoadEntry struct {
	Load    LoadResult `json:"load"`
	Variant string     `json:"variant"`
}

// DSBenchCycle ("cycle") is one finished cycle of a DSBENCH scale.
type DSBenchCycle struct {
	Committed int64   `json:"committed"`
	Cycle     int     `json:"cycle"`
	Failed    int64   `json:"failed"`
	Scale     int64   `json:"scale"`
	TPS       float64 `json:"tps"`
	// Errors counts the failed trials by class, Reconnects the attempts
	// to replace sessions lost to faults (absent when none).
	Errors     map[string]int64 `json:"errors,omitempty"`
	Reconnects int64            `json:"reconnects,omitempty"`
	// Cluster is what each node of a cluster served in the cycle.
	Cluster []ClusterServed `json:"cluster,omitempty"`
}

// QACExecution ("qe") is one query execution of the timing protocol at a
// cardinality.
type QACExecution struct {
	Cardinality int64     `json:"cardinality"`
	QE          timing.QE `json:"qe"`
}

// WisconsinQaC ("ttp") is the Q@C of one Wisconsin query result under
// the timing protocol, whole: a resumed run analyses it with the Q@Cs
// measured after the resume. Unit names the query result.
type WisconsinQaC struct {
	QaC  timing.QaC `json:"qac"`
	Unit string     `json:"unit"`
}

// SizeSweepRetrieve ("retrieve") is one timed retrieve of a size sweep.
type SizeSweepRetrieve struct {
	Access string  `json:"access"`
	Key    int64   `json:"key"`
	MS     float64 `json:"ms"`
	Rep    int     `json:"rep"`
	Rows   int64   `json:"rows"`
	Size   int64   `json:"size"`
}

// SizeSweepOrganize ("organize") is one relation of a size sweep cut and
// organised for an access method.
type SizeSweepOrganize struct {
	Access       string `json:"access"`
	Organization string `json:"organization"`
	Size         int64  `json:"size"`
	Table        string `json:"table"`
}

// SpeedupPointEntry ("point") is one measured point of a speedup curve.
type SpeedupPointEntry struct {
	Point SpeedupPoint `json:"point"`
	Query string       `json:"query"`
}

// StorageEntry ("storage") is one finished test of a storage run: Result
// is a *Throughput (sequential) or a *LatencyTest (random, synchronous).
type StorageEntry struct {
	Result StorageMeasure `json:"result"`
	Test   string         `json:"test"`
}

// MarkEntry ("mark") is an event a person marked while the run ran
// (`dbgauge mark`, the live page): its text and when it was asked for,
// so that a replay shows it where it happened.
type MarkEntry struct {
	At   time.Time `json:"at"`
	Text string    `json:"text"`
}

// StorageMeasure is what a storage test measured: Throughput or
// LatencyTest.
type StorageMeasure interface{ storageMeasure() }

func (Throughput) storageMeasure()  {}
func (LatencyTest) storageMeasure() {}

func (JournalWarning) JournalKind() string     { return "warning" }
func (WisconsinExecution) JournalKind() string { return "execution" }
func (QueryResult) JournalKind() string        { return "query" }
func (LoadResult) JournalKind() string         { return "load" }
func (OrganizeResult) JournalKind() string     { return "organize" }
func (ABExecution) JournalKind() string        { return "execution" }
func (ABQuery) JournalKind() string            { return "query" }
func (ABLoadEntry) JournalKind() string        { return "load" }
func (ABOrganize) JournalKind() string         { return "organize" }
func (ScaleResult) JournalKind() string        { return "scale" }
func (DSBenchCycle) JournalKind() string       { return "cycle" }
func (MultiuserRun) JournalKind() string       { return "multiuser" }
func (MultiuserRetried) JournalKind() string   { return "retried" }
func (QACExecution) JournalKind() string       { return "qe" }
func (QaCResult) JournalKind() string          { return "qac" }
func (WisconsinQaC) JournalKind() string       { return "ttp" }
func (SizeSweepRetrieve) JournalKind() string  { return "retrieve" }
func (SizeSweepOrganize) JournalKind() string  { return "organize" }
func (SizeSweepPoint) JournalKind() string     { return "sizepoint" }
func (SpeedupPointEntry) JournalKind() string  { return "point" }
func (StorageEntry) JournalKind() string       { return "storage" }
func (MarkEntry) JournalKind() string          { return "mark" }
