package driver

import (
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Transaction types and statements: a workload of several kinds of
// transaction (Config.Types) has each attempt's kind said by its Op
// (Session.Type), and an Op that times its statements hands each one's
// elapsed time to Session.Statement. A cycle then also counts per type
// what it counts in all (commits, failed trials by class, retries,
// residence times) and per statement its executions and their times.
//
// Per type and statement each worker keeps dense histograms of the
// driver's geometry (about 190 KB each), merged at the cycle's end like
// the residence histogram; nothing of this runs for a workload of one
// type without statements, whose one type is its totals.

// TypeResult is one transaction type over a cycle's threads (or a run's
// cycles, or the nodes of a distributed load).
type TypeResult struct {
	// Name is the type's, from Config.Types.
	Name string
	// Committed, Failed (trials) and Retries (attempts after the first),
	// counted for the type of the attempt: a retry is the failed attempt's.
	Committed, Failed, Retries int64
	// Errors counts the failed trials by class: they sum to Failed.
	Errors ErrorCounts
	// Residence holds the committed transactions' residence times
	// (microseconds, the geometry of NewHistogram).
	Residence *hdr.Histogram
	// Statements are the type's, in Config.Statements order.
	Statements []StatementResult
}

// StatementResult is one statement of a type: the elapsed times an Op
// handed to Session.Statement in the trials counted.
type StatementResult struct {
	Name string
	// Residence holds the times (microseconds); its TotalCount is the
	// number of executions.
	Residence *hdr.Histogram
}

// Statement records that statement i (an index into the current type's
// Config.Statements) took d in the attempt running. The Op calls it after
// each statement it times; the times count with the attempt: in its cycle
// when the attempt is counted there (committed or failed inside the
// cycle), nowhere otherwise, and for the type Session.Type says when the
// attempt ends. An i out of range counts nowhere. It does not allocate
// once the session has seen its longest attempt, and costs nothing when
// the run has no statements.
func (s *Session) Statement(i int, d time.Duration) {
	if s.timed {
		s.stmts = append(s.stmts, stmtTime{int32(i), d})
	}
}

// stmtTime is one Session.Statement call, kept until its attempt is
// counted.
type stmtTime struct {
	stmt int32
	d    time.Duration
}

// typeTally is a worker's counts per type in one cycle; nil slices when
// the run keeps no per-type figures, so a commit pays one nil check.
type typeTally struct {
	committed, failed, retries []int64
	errors                     []ErrorCounts
	res                        []*hdr.Histogram
	stmts                      [][]*hdr.Histogram
}

// tracksTypes says whether the workers count per type: with several types
// or any statement timed. One type without statements is its totals.
func (c *Config) tracksTypes() bool { return len(c.Types) > 1 || c.timesStatements() }

func (c *Config) timesStatements() bool {
	for _, st := range c.Statements {
		if len(st) > 0 {
			return true
		}
	}
	return false
}

// numTypes is the number of types the run counts (at least 1).
func (c *Config) numTypes() int { return max(len(c.Types), len(c.Statements), 1) }

// typeName is type i's name ("" when Types does not name it).
func (c *Config) typeName(i int) string {
	if i < len(c.Types) {
		return c.Types[i]
	}
	return ""
}

func (c *Config) statementNames(i int) []string {
	if i < len(c.Statements) {
		return c.Statements[i]
	}
	return nil
}

func newTypeTally(c *Config) typeTally {
	n := c.numTypes()
	t := typeTally{
		committed: make([]int64, n), failed: make([]int64, n), retries: make([]int64, n),
		errors: make([]ErrorCounts, n), res: make([]*hdr.Histogram, n), stmts: make([][]*hdr.Histogram, n),
	}
	for i := range n {
		t.res[i] = NewHistogram()
		for range c.statementNames(i) {
			t.stmts[i] = append(t.stmts[i], NewHistogram())
		}
	}
	return t
}

// of is where s's attempt counts: its Type, kept inside the types' range.
func (t *typeTally) of(s *Session) int {
	return min(max(s.Type, 0), len(t.committed)-1)
}

// statements counts s's attempt's statement times for type i and forgets
// them.
func (t *typeTally) statements(i int, s *Session) {
	hs := t.stmts[i]
	for _, st := range s.stmts {
		if int(st.stmt) >= 0 && int(st.stmt) < len(hs) {
			record(hs[st.stmt], st.d)
		}
	}
	s.stmts = s.stmts[:0]
}

// take returns the worker's per-type results of the cycle, every type
// listed, and resets the counts.
func (t *typeTally) take(c *Config) []TypeResult {
	out := make([]TypeResult, len(t.committed))
	for i := range out {
		out[i] = TypeResult{Name: c.typeName(i), Committed: t.committed[i], Failed: t.failed[i], Retries: t.retries[i],
			Errors: t.errors[i], Residence: NewHistogram()}
		out[i].Residence.Merge(t.res[i])
		for k, h := range t.stmts[i] {
			sr := StatementResult{Name: c.statementNames(i)[k], Residence: NewHistogram()}
			sr.Residence.Merge(h)
			out[i].Statements = append(out[i].Statements, sr)
			h.Reset()
		}
		t.committed[i], t.failed[i], t.retries[i] = 0, 0, 0
		t.errors[i] = ErrorCounts{}
		t.res[i].Reset()
	}
	return out
}

// oneType is the cycle's one named type: its totals (Config.Types of one
// name and no statements).
func oneType(name string, c *Totals) []TypeResult {
	h := NewHistogram()
	h.Merge(c.Residence)
	return []TypeResult{{Name: name, Committed: c.Committed, Failed: c.Failed, Retries: c.Retries, Errors: c.Errors, Residence: h}}
}

// add adds o's counts and histograms into t: the same type over more
// threads, cycles or nodes.
func (t *TypeResult) add(o *TypeResult) {
	t.Committed += o.Committed
	t.Failed += o.Failed
	t.Retries += o.Retries
	t.Errors.Add(o.Errors)
	mergeInto(&t.Residence, o.Residence)
	for _, os := range o.Statements {
		k := indexOf(len(t.Statements), func(i int) string { return t.Statements[i].Name }, os.Name)
		if k < 0 {
			t.Statements = append(t.Statements, StatementResult{Name: os.Name})
			k = len(t.Statements) - 1
		}
		mergeInto(&t.Statements[k].Residence, os.Residence)
	}
}

// addTypes adds the types of o into ts, matched by name (a type ts lacks
// is appended), and returns ts.
func addTypes(ts, o []TypeResult) []TypeResult {
	for i := range o {
		k := indexOf(len(ts), func(j int) string { return ts[j].Name }, o[i].Name)
		if k < 0 {
			ts = append(ts, TypeResult{Name: o[i].Name})
			k = len(ts) - 1
		}
		ts[k].add(&o[i])
	}
	return ts
}

// indexOf is the first i < n whose name is name, or -1.
func indexOf(n int, nameOf func(int) string, name string) int {
	for i := range n {
		if nameOf(i) == name {
			return i
		}
	}
	return -1
}

// mergeInto merges h into *dst, giving *dst a histogram first if it has
// none (h nil adds nothing).
func mergeInto(dst **hdr.Histogram, h *hdr.Histogram) {
	if *dst == nil {
		*dst = NewHistogram()
	}
	if h != nil {
		(*dst).Merge(h)
	}
}
