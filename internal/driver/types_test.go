package driver

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// twoTypes is an Op of two transaction types on the t table: b every 4th
// transaction of a thread, a the others. An a fails its first attempt
// every 6th transaction with an unclassified error, a b every 8th with a
// serialization failure; the retry commits. Each attempt times its insert
// as statement 0, and a b that commits also times statement 1.
func twoTypes(node, thread int) Op {
	k := 0
	return func(ctx context.Context, s *Session) error {
		if s.Attempt == 0 {
			k++
			s.Type = 0
			if k%4 == 0 {
				s.Type = 1
			}
		}
		fail := s.Attempt == 0 && (s.Type == 0 && k%6 == 1 || s.Type == 1 && k%8 == 0)
		t0 := time.Now()
		if err := insert(ctx, s, int64(k), false); err != nil {
			return err
		}
		s.Statement(0, time.Since(t0))
		if fail && s.Type == 1 {
			s.Engine.Exec(ctx, "SELECT 1")
			return dbms.Wrap(dbms.Serialization, fmt.Errorf("test: planned conflict"))
		}
		if fail {
			return fmt.Errorf("test: planned failure")
		}
		if s.Type == 1 {
			t1 := time.Now()
			if _, err := s.Engine.Exec(ctx, "SELECT 1"); err != nil {
				return err
			}
			s.Statement(1, time.Since(t1))
		}
		return nil
	}
}

// TestTypes runs two nodes of two threads of twoTypes for two cycles and
// checks the per-type figures against the totals and the op's pattern:
// counts per type add up to the totals in every cycle and the run; the
// failures land on their type with their class; b is a quarter of the
// commits; every counted attempt's statements are in the histograms.
func TestTypes(t *testing.T) {
	open, _, _ := sqliteDB(t)
	const nodes, threads, cycles = 2, 2, 2
	cfg := Config{
		Nodes: nodes, Threads: threads, Cycles: cycles, Duration: 150 * time.Millisecond, Retry: true,
		Open: open, NewOp: twoTypes,
		Types:      []string{"a", "b"},
		Statements: [][]string{{"insert"}, {"insert", "check"}},
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Cycles {
		checkTypesAddUp(t, fmt.Sprintf("cycle %d", c.Cycle), &c.Totals)
	}
	checkTypesAddUp(t, "run", &res.Totals)
	a, b := res.Types[0], res.Types[1]
	if a.Name != "a" || b.Name != "b" {
		t.Fatalf("types %q, %q", a.Name, b.Name)
	}
	if a.Failed == 0 || a.Errors[dbms.Other] != a.Failed || a.Retries != a.Failed {
		t.Errorf("a: failed %d, retries %d, errors %v: want all unclassified (other), each retried", a.Failed, a.Retries, a.Errors.Map())
	}
	if b.Failed == 0 || b.Errors[dbms.Serialization] != b.Failed || b.Retries != b.Failed {
		t.Errorf("b: failed %d, retries %d, errors %v: want all serialization, each retried", b.Failed, b.Retries, b.Errors.Map())
	}
	// b is every 4th transaction of a thread: a thread's count can be
	// off by one at each end of a cycle.
	if slack := int64(4 * 2 * nodes * threads * cycles); abs(4*b.Committed-res.Committed) > slack {
		t.Errorf("b committed %d of %d, want a quarter (within %d/4)", b.Committed, res.Committed, slack)
	}
	for _, tc := range []struct {
		name      string
		got, want int64
	}{
		{"a insert", a.Statements[0].Residence.TotalCount(), a.Committed + a.Failed},
		{"b insert", b.Statements[0].Residence.TotalCount(), b.Committed + b.Failed},
		{"b check", b.Statements[1].Residence.TotalCount(), b.Committed},
	} {
		if tc.got != tc.want || tc.got == 0 {
			t.Errorf("%s: %d times recorded, want %d (one per counted attempt)", tc.name, tc.got, tc.want)
		}
	}
	if a.Statements[0].Name != "insert" || b.Statements[1].Name != "check" {
		t.Errorf("statement names %q, %q", a.Statements[0].Name, b.Statements[1].Name)
	}
	t.Logf("a: %d committed, %d failed; b: %d committed, %d failed; total %d", a.Committed, a.Failed, b.Committed, b.Failed, res.Committed)
}

// checkTypesAddUp: the types' counts and histograms sum to the totals'.
func checkTypesAddUp(t *testing.T, what string, tot *Totals) {
	t.Helper()
	var committed, failed, retries, hist int64
	var errs ErrorCounts
	for _, ty := range tot.Types {
		committed += ty.Committed
		failed += ty.Failed
		retries += ty.Retries
		errs.Add(ty.Errors)
		hist += ty.Residence.TotalCount()
		if ty.Residence.TotalCount() != ty.Committed {
			t.Errorf("%s type %s: histogram %d, committed %d", what, ty.Name, ty.Residence.TotalCount(), ty.Committed)
		}
	}
	if committed != tot.Committed || failed != tot.Failed || retries != tot.Retries || errs != tot.Errors || hist != tot.Residence.TotalCount() {
		t.Errorf("%s: types sum to %d/%d/%d %v, totals %d/%d/%d %v", what, committed, failed, retries, errs.Map(),
			tot.Committed, tot.Failed, tot.Retries, tot.Errors.Map())
	}
}

// TestOneType: a workload of one named type without statements gets its
// totals as that type; a workload naming none gets no types.
func TestOneType(t *testing.T) {
	open, _, _ := sqliteDB(t)
	op := func(node, thread int) Op {
		k := 0
		return func(ctx context.Context, s *Session) error {
			k++
			return insert(ctx, s, int64(k), k%5 == 0)
		}
	}
	for _, types := range [][]string{nil, {"only"}} {
		res, err := Run(context.Background(), Config{Threads: 2, Cycles: 1, Duration: 100 * time.Millisecond, Open: open, NewOp: op, Types: types})
		if err != nil {
			t.Fatal(err)
		}
		if types == nil {
			if res.Types != nil {
				t.Errorf("no types named: got %d", len(res.Types))
			}
			continue
		}
		if len(res.Types) != 1 || res.Types[0].Name != "only" || res.Failed == 0 {
			t.Fatalf("types %+v, failed %d", res.Types, res.Failed)
		}
		checkTypesAddUp(t, "one type", &res.Totals)
	}
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// TestTypeFigures: the stored percentiles of a type holding 1 .. 1000 us
// are those values' by hand (below 2048 us the histogram is exact), in
// ms; a statement never run has a count of 0 and zero percentiles.
func TestTypeFigures(t *testing.T) {
	h := NewHistogram()
	for v := int64(1); v <= 1000; v++ {
		h.RecordValue(v)
	}
	var e ErrorCounts
	e[dbms.Deadlock] = 2
	tot := Totals{Types: []TypeResult{{Name: "a", Committed: 1000, Failed: 2, Retries: 1, Errors: e, Residence: h,
		Statements: []StatementResult{{Name: "s", Residence: NewHistogram()}}}}}
	f := tot.TypeFigures()
	if len(f) != 1 {
		t.Fatalf("%d figures", len(f))
	}
	got := f[0]
	want := [...]float64{0.5, 0.9, 0.95, 0.99, 0.999, 1}
	if p := got.Percentiles; [...]float64{p.P50MS, p.P90MS, p.P95MS, p.P99MS, p.P999MS, p.MaxMS} != want {
		t.Errorf("percentiles %+v, want %v", p, want)
	}
	if got.Name != "a" || got.Count != 1000 || got.Failed != 2 || got.Retries != 1 || got.Errors["deadlock"] != 2 || len(got.Errors) != 1 {
		t.Errorf("figures %+v", got)
	}
	if s := got.Statements; len(s) != 1 || s[0].Name != "s" || s[0].Count != 0 || s[0].MaxMS != 0 {
		t.Errorf("statements %+v", s)
	}
	if (&Totals{}).TypeFigures() != nil {
		t.Error("no types: want nil figures")
	}
}

// TestTypesProgress: with several types Progress carries each type's
// commits in the cycle so far, named, never decreasing within a cycle and
// never more than the cycle's final count of the type.
func TestTypesProgress(t *testing.T) {
	open, _, _ := sqliteDB(t)
	var got []Progress
	cfg := Config{
		Threads: 2, Cycles: 2, Duration: 200 * time.Millisecond, Retry: true, Open: open, NewOp: twoTypes,
		Types: []string{"a", "b"}, ProgressEvery: 20 * time.Millisecond,
		Progress: func(p Progress) { got = append(got, p) },
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	last := map[int][2]int64{}
	for i, p := range got {
		if len(p.Types) != 2 || p.Types[0].Name != "a" || p.Types[1].Name != "b" {
			t.Fatalf("progress %d: types %+v", i, p.Types)
		}
		final := res.Cycles[p.Cycle-1].Types
		for k, ty := range p.Types {
			if ty.Committed > final[k].Committed || ty.Committed < last[p.Cycle][k] || ty.TPS < 0 {
				t.Errorf("progress %d type %s: %d committed at %.0f tps; before %d, the cycle's final %d", i, ty.Name, ty.Committed, ty.TPS, last[p.Cycle][k], final[k].Committed)
			}
		}
		last[p.Cycle] = [2]int64{p.Types[0].Committed, p.Types[1].Committed}
		if p.Types[0].Committed > 0 && p.Types[1].Committed > 0 {
			seen++
		}
	}
	if seen == 0 {
		t.Errorf("no progress with commits of both types in %d calls", len(got))
	}
}

// TestTypeBytes: per-type figures cost a dense histogram per type and
// statement, nothing for one type without statements.
func TestTypeBytes(t *testing.T) {
	h := int64(NewHistogram().ByteSize())
	for _, tc := range []struct{ types, stmts, want int64 }{{0, 0, 0}, {1, 0, 0}, {1, 2, 3 * h}, {3, 5, 8 * h}} {
		if got := TypeBytes(int(tc.types), int(tc.stmts)); got != tc.want {
			t.Errorf("TypeBytes(%d, %d) = %d, want %d", tc.types, tc.stmts, got, tc.want)
		}
	}
}

// TestTypesChecked: Run refuses types or statements named twice (their
// figures merge by name) and statements of more types than are named.
func TestTypesChecked(t *testing.T) {
	open, _, _ := sqliteDB(t)
	for _, tc := range []struct {
		types []string
		stmts [][]string
		want  string
	}{
		{[]string{"a", "a"}, nil, `Types names "a" twice`},
		{[]string{"a", "b"}, [][]string{nil, {"s", "s"}}, `Statements of type "b" name "s" twice`},
		{[]string{"a"}, [][]string{{"s"}, {"t"}}, "Statements of 2 types, Types names 1"},
	} {
		_, err := Run(context.Background(), Config{Cycles: 1, Duration: time.Millisecond, Open: open, NewOp: twoTypes, Types: tc.types, Statements: tc.stmts})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("types %q statements %q: error %v, want %q", tc.types, tc.stmts, err, tc.want)
		}
	}
}
