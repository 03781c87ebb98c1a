package cli

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// exprScript exercises every operator and function of pgbench's
// expression language on values drawn under a fixed seed, and inserts
// what it computed into the table -D tbl names.
const exprScript = `\set r1 random(1, 1000000)
\set r2 random_exponential(1, 1000000, 2.5)
\set r3 random_gaussian(1, 1000000, 3.0)
\set r4 random_zipfian(1, 1000, 1.2)
\set h1 hash(:r1)
\set h2 hash_murmur2(:r1, 12345)
\set h3 hash_fnv1a(:r2, :default_seed)
\set p1 permute(:r1, 1000003)
\set p2 permute(:r2, 1000000, 77)
\set i1 abs(:r1 - 500000) + greatest(:r2, :r3, 7) - least(:r4, 3, :r1)
\set i2 int(sqrt(:r1) * 1000) + int(exp(:r4 % 20)) + int(ln(:r2 + 1) * 1000000)
\set d1 double(:r1) / 7.0 + pow(:r4, 0.5) + pi() * :r3
\set d2 pow(2, :r4 % 30) + pow(1.5, 3) - mod(:r1, 97) - 1.0 / 3
\set i3 (:r1 * 3 + :r2 - :r3 / 7) % 1000003
\set i4 ((:r1 & 255) | (:r2 # 1023)) + (~:r3) + (:r4 << 3) + (:h1 >> 7)
\set b1 :r1 < :r2 and :r3 >= :r4 or not (:r1 = :r2) and :r1 <> :r3 and :r2 != 5 and :r1 <= 2000000 and :r1 > 0
\set b2 (:r1 % 2 = 0) or (:r2 % 3 = 0) and not (:r3 % 5 = 0)
\set c1 case when :r1 % 3 = 0 then 1 when :r1 % 3 = 1 then 2 else 3 end
\set n1 case when :r1 is null then 1 when :r2 isnull then 2 when :r3 notnull then 3 else 4 end
\set m1 mod(-:r1, 13) + :r2 / -3 - -:r4
INSERT INTO :tbl VALUES (:client_id, :r1, :r2, :r3, :r4, :h1, :h2, :h3, :p1, :p2, :i1, :i2, :d1, :d2, :i3, :i4, :b1, :b2, :c1, :n1, :m1);
`

const exprColumns = "cid int, r1 bigint, r2 bigint, r3 bigint, r4 bigint, h1 bigint, h2 bigint, h3 bigint, p1 bigint, p2 bigint, i1 bigint, i2 bigint, d1 float8, d2 float8, i3 bigint, i4 bigint, b1 boolean, b2 boolean, c1 int, n1 int, m1 bigint"

// TestPgbenchIdenticalRows: a script of deterministic \set expressions,
// every operator and function with the random draws under one fixed
// seed, run by the real pgbench and by dbgauge pgbench on the same
// PostgreSQL with the same command line: the rows they insert are
// identical, row for row.
func TestPgbenchIdenticalRows(t *testing.T) {
	inst := pgbenchPostgres(t)
	file := writeScript(t, t.TempDir(), "expr.sql", exprScript)
	execSQL(t, inst.URL, "CREATE TABLE rows_pgbench ("+exprColumns+")", "CREATE TABLE rows_dbgauge ("+exprColumns+")")
	args := func(tbl string) []string {
		return []string{"-n", "-c", "3", "-j", "3", "-t", "200", "--random-seed", "20261128", "-D", "tbl=" + tbl, "-f", file, inst.URL}
	}
	if code, out, errs := peerPgbench(t, args("rows_pgbench")...); code != 0 {
		t.Fatalf("pgbench: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs, _ := ourPgbench(t, args("rows_dbgauge")...); code != 0 {
		t.Fatalf("dbgauge pgbench: exit %d\n%s%s", code, out, errs)
	}
	const q = "SELECT * FROM %s ORDER BY cid, r1, r2, r3, r4, d1"
	want, got := queryRows(t, inst.URL, fmt.Sprintf(q, "rows_pgbench")), queryRows(t, inst.URL, fmt.Sprintf(q, "rows_dbgauge"))
	if len(want) != 600 {
		t.Fatalf("pgbench inserted %d rows, want 600", len(want))
	}
	if len(got) != len(want) {
		t.Fatalf("dbgauge inserted %d rows, pgbench %d", len(got), len(want))
	}
	t.Logf("first row: %v", want[0])
	diffs := 0
	for i := range want {
		if !slices.Equal(want[i], got[i]) {
			if diffs++; diffs <= 5 {
				t.Errorf("row %d:\npgbench %v\ndbgauge %v", i, want[i], got[i])
			}
		}
	}
	if diffs > 0 {
		t.Errorf("%d of %d rows differ", diffs, len(want))
	}
}

// TestPgbenchRandomDistributions: for each random function, 100,000
// draws by the real pgbench and 100,000 by dbgauge pgbench (different
// seeds) pass a two-sample Kolmogorov-Smirnov test at significance 0.001;
// and the test itself tells two different distributions apart.
func TestPgbenchRandomDistributions(t *testing.T) {
	inst := pgbenchPostgres(t)
	dir := t.TempDir()
	funcs := []struct{ name, call string }{
		{"uniform", "random(1, 1000)"},
		{"exponential", "random_exponential(1, 1000, 5.0)"},
		{"gaussian", "random_gaussian(1, 1000, 2.5)"},
		{"zipfian", "random_zipfian(1, 1000, 1.07)"},
	}
	// Each transaction draws 100 values and inserts them in one statement:
	// 4 clients x 250 transactions are 100,000 draws.
	const perTx = 100
	draws := func(tool, seed string, run func(args ...string) (int, string, string)) map[string]map[int64]int64 {
		out := map[string]map[int64]int64{}
		for _, f := range funcs {
			var b strings.Builder
			var vals []string
			for i := 1; i <= perTx; i++ {
				fmt.Fprintf(&b, "\\set v%d %s\n", i, f.call)
				vals = append(vals, fmt.Sprintf("(:v%d)", i))
			}
			fmt.Fprintf(&b, "INSERT INTO :tbl VALUES %s;\n", strings.Join(vals, ", "))
			file := writeScript(t, dir, tool+"_"+f.name+".sql", b.String())
			tbl := "draws_" + tool + "_" + f.name
			execSQL(t, inst.URL, "CREATE UNLOGGED TABLE "+tbl+" (v bigint)")
			if code, stdout, stderr := run("-n", "-c", "4", "-j", "4", "-t", "250", "--random-seed", seed, "-D", "tbl="+tbl, "-f", file, inst.URL); code != 0 {
				t.Fatalf("%s %s: exit %d\n%s%s", tool, f.name, code, stdout, stderr)
			}
			out[f.name] = histogram(t, queryRows(t, inst.URL, "SELECT v, count(*) FROM "+tbl+" GROUP BY v"))
		}
		return out
	}
	peer := draws("pgbench", "1", func(args ...string) (int, string, string) { return peerPgbench(t, args...) })
	ours := draws("dbgauge", "2", func(args ...string) (int, string, string) {
		code, o, e, _ := ourPgbench(t, args...)
		return code, o, e
	})
	for _, f := range funcs {
		d, crit, n, m := ksTwoSample(peer[f.name], ours[f.name], 0.001)
		if n != 100000 || m != 100000 {
			t.Errorf("%s: %d and %d draws, want 100000 each", f.name, n, m)
		}
		t.Logf("%s: D = %.5f, critical %.5f at 0.001", f.name, d, crit)
		if d > crit {
			t.Errorf("%s: D = %.5f above %.5f: dbgauge's draws are not distributed as pgbench's (significance 0.001)", f.name, d, crit)
		}
	}
	// The test can fail: pgbench's uniform against its gaussian.
	if d, crit, _, _ := ksTwoSample(peer["uniform"], peer["gaussian"], 0.001); d <= crit {
		t.Errorf("uniform against gaussian: D = %.5f within %.5f: the test tells nothing apart", d, crit)
	}
}

// histogram reads (value, count) rows.
func histogram(t *testing.T, rows [][]string) map[int64]int64 {
	t.Helper()
	h := map[int64]int64{}
	for _, r := range rows {
		v, err1 := strconv.ParseInt(r[0], 10, 64)
		n, err2 := strconv.ParseInt(r[1], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("row %v", r)
		}
		h[v] = n
	}
	return h
}

// ksTwoSample is the two-sample Kolmogorov-Smirnov statistic of two
// samples given as value counts, D = max over x of |F1(x) - F2(x)| with
// F the empirical distribution functions (evaluated at every value either
// sample holds, so ties between the samples are handled exactly), and its
// large-sample critical value at significance alpha:
// c(alpha) sqrt((n+m)/(n m)) with c(alpha) = sqrt(-ln(alpha/2) / 2).
// For discrete values the test is conservative (it rejects less often
// than alpha says).
func ksTwoSample(a, b map[int64]int64, alpha float64) (d, crit float64, n, m int64) {
	var xs []int64
	for x, c := range a {
		xs = append(xs, x)
		n += c
	}
	for x, c := range b {
		if _, ok := a[x]; !ok {
			xs = append(xs, x)
		}
		m += c
	}
	slices.Sort(xs)
	var ca, cb int64
	for _, x := range xs {
		ca += a[x]
		cb += b[x]
		d = math.Max(d, math.Abs(float64(ca)/float64(n)-float64(cb)/float64(m)))
	}
	crit = math.Sqrt(-math.Log(alpha/2)/2) * math.Sqrt(float64(n+m)/float64(n*m))
	return d, crit, n, m
}

// TestKSTwoSampleByHand checks the statistic on samples worked out by
// hand: {1,2,3} against {2,3,4}: F1 - F2 is 1/3 at 1, 1/3 at 2, 1/3 at 3,
// 0 at 4, so D = 1/3; and the critical value at 0.05 for n = m = 100 is
// 1.3581 x sqrt(2/100) = 0.19206.
func TestKSTwoSampleByHand(t *testing.T) {
	d, _, n, m := ksTwoSample(map[int64]int64{1: 1, 2: 1, 3: 1}, map[int64]int64{2: 1, 3: 1, 4: 1}, 0.05)
	if math.Abs(d-1.0/3) > 1e-12 || n != 3 || m != 3 {
		t.Errorf("D = %v (n %d, m %d), want 1/3", d, n, m)
	}
	_, crit, _, _ := ksTwoSample(map[int64]int64{1: 100}, map[int64]int64{1: 100}, 0.05)
	if math.Abs(crit-0.19206) > 1e-4 {
		t.Errorf("critical value %v, want 0.19206", crit)
	}
}
