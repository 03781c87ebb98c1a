package script

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// pipelineScript has a transaction begun inside a pipeline and ended after
// it, a sync point in the middle, and variables bound in the pipeline.
const pipelineScript = `\set a 3
\startpipeline
BEGIN;
UPDATE pt SET v = v + :a WHERE id = 1;
\syncpipeline
INSERT INTO pt (id, v) VALUES (:client_id + 2, :a);
\endpipeline
END;
`

const pipelineFails = `\startpipeline
BEGIN;
UPDATE pt SET v = v + 1000 WHERE id = 1;
INSERT INTO pt (id, v) VALUES (1, 0);
END;
\endpipeline
`

func testPipeline(t *testing.T, ctx context.Context, open func() dbms.Engine) {
	e := open()
	for _, q := range []string{"DROP TABLE IF EXISTS pt", "CREATE TABLE pt (id INTEGER PRIMARY KEY, v INTEGER)", "INSERT INTO pt VALUES (1, 0)"} {
		if _, err := e.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, proto := range []Protocol{Extended, Prepared} {
		p := mustProgram(t, Options{Protocol: proto}, scriptOf(t, "pipe.sql", pipelineScript))
		c := p.Clients(1)[0]
		if err := c.Setup(ctx, e); err != nil {
			t.Fatal(err)
		}
		if r := c.Run(ctx, nil); r.Err != nil {
			t.Fatalf("%s: %v", proto, r.Err)
		}
		if v, err := dbms.FirstValue(ctx, e, "SELECT v FROM pt WHERE id = 2"); err != nil || v != "3" {
			t.Errorf("%s: the pipeline's insert: v = %q (%v), want 3", proto, v, err)
		}
		if _, err := e.Exec(ctx, "DELETE FROM pt WHERE id = 2"); err != nil {
			t.Fatal(err)
		}
	}
	if v, _ := dbms.FirstValue(ctx, e, "SELECT v FROM pt WHERE id = 1"); v != "6" {
		t.Errorf("v = %s after two pipelines, want 6", v)
	}
	p := mustProgram(t, Options{Protocol: Extended}, scriptOf(t, "fails.sql", pipelineFails))
	c := p.Clients(1)[0]
	if err := c.Setup(ctx, e); err != nil {
		t.Fatal(err)
	}
	r := c.Run(ctx, nil)
	if r.Err == nil || !strings.Contains(r.Err.Error(), "fails.sql:6:1") || !strings.Contains(r.Err.Error(), "duplicate key") {
		t.Fatalf("a failing pipeline: %v", r.Err)
	}
	if e.(dbms.TextQuerier).InTransaction() {
		t.Error("the failed pipeline's transaction is still open")
	}
	if v, _ := dbms.FirstValue(ctx, e, "SELECT v FROM pt WHERE id = 1"); v != "6" {
		t.Errorf("v = %s after the failed pipeline, want 6 (its update rolled back)", v)
	}
}

func rowsText(rows [][]string) string {
	var parts []string
	for _, r := range rows {
		parts = append(parts, strings.Join(r, " "))
	}
	return strings.Join(parts, ", ")
}

// peerScript uses \set with the random functions and hashes, \gset with a
// prefix, \aset over a compound and an \if chain; its rows say what it saw.
const peerScript = `\set a 5
\set b :a * 3 + 1
\set r random(1, 1000000)
\set g random_gaussian(1, 1000, 2.5)
\set h hash(:a)
\set p permute(:a, 1000)
SELECT :a::bigint + :b::bigint AS s, :a::bigint * 2 AS d \gset p_
SELECT 1 AS one \; SELECT 2 AS two, 4 AS four \aset
\if :p_s > 100
INSERT INTO peer (tag, v) VALUES ('big', :p_s);
\elif :p_d = 10
INSERT INTO peer (tag, v) VALUES ('ten', :p_s::bigint + :one::bigint + :two::bigint + :four::bigint);
\else
INSERT INTO peer (tag, v) VALUES ('else', 0);
\endif
INSERT INTO peer (tag, v) VALUES ('r', :r);
INSERT INTO peer (tag, v) VALUES ('g', :g);
INSERT INTO peer (tag, v) VALUES ('h', :h);
INSERT INTO peer (tag, v) VALUES ('p', :p);
INSERT INTO peer (tag, v) VALUES ('cid', :client_id::bigint + :scale::bigint);
`

// testSameAsPgbench runs peerScript, and a script with a pipeline, once
// with the real pgbench and once with this runtime, under the protocols
// pgbench takes them in, with the same seed, on the same server: the rows
// must be the same.
func testSameAsPgbench(t *testing.T, ctx context.Context, url string, open func() dbms.Engine) {
	e := open()
	for _, proto := range []Protocol{Simple, Extended} {
		src := peerScript
		if proto != Simple {
			// pgbench sends a compound in one message, which the
			// extended protocol refuses; this runtime would run it.
			src = strings.Replace(src, `SELECT 1 AS one \; SELECT 2 AS two`, `SELECT 1 AS one, 2 AS two`, 1)
		}
		if got := sameAsPgbench(t, ctx, url, e, src, proto); !strings.Contains(got, "ten 28") {
			t.Errorf("%s: rows %s, want a row ten 28", proto, got)
		}
	}
	for _, proto := range []Protocol{Extended, Prepared} {
		if got := sameAsPgbench(t, ctx, url, e, pipelinePeer, proto); got != "a 7, b 14" {
			t.Errorf("%s pipeline: rows %s, want a 7, b 14", proto, got)
		}
	}
}

// pipelinePeer is a pipeline pgbench 15 runs (it has no \syncpipeline).
const pipelinePeer = `\set a 7
\startpipeline
INSERT INTO peer (tag, v) VALUES ('a', :a);
INSERT INTO peer (tag, v) VALUES ('b', :a::bigint * 2);
\endpipeline
`

// sameAsPgbench runs src, one transaction of one client, by pgbench and by
// this runtime under proto, each into a fresh table peer (tag, v), and
// returns the rows (tag v, ...) after checking that both wrote the same.
func sameAsPgbench(t *testing.T, ctx context.Context, url string, e dbms.Engine, src string, proto Protocol) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "peer.sql")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	reset := func() {
		for _, q := range []string{"DROP TABLE IF EXISTS peer", "CREATE TABLE peer (tag TEXT, v BIGINT)"} {
			if _, err := e.Exec(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	}
	rows := func() string {
		r, err := e.QueryRows(ctx, "SELECT tag, v FROM peer ORDER BY tag")
		if err != nil {
			t.Fatal(err)
		}
		return rowsText(r)
	}
	reset()
	cmd := exec.CommandContext(ctx, servertest.Pgbench(t), "-n", "-t", "1", "-M", proto.String(), "--random-seed=5", "-D", "scale=3", "-f", file, url)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("pgbench: %v\n%s", err, out.String())
	}
	want := rows()
	reset()
	loaded, err := LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p := mustProgram(t, Options{Protocol: proto, RandomSeed: 5, Defines: []Define{{"scale", "3"}}}, loaded)
	c := p.Clients(1)[0]
	if err := c.Setup(ctx, e); err != nil {
		t.Fatal(err)
	}
	if r := c.Run(ctx, nil); r.Err != nil {
		t.Fatal(r.Err)
	}
	got := rows()
	if got != want {
		t.Errorf("%s protocol:\n pgbench:  %s\n dbgauge:  %s", proto, want, got)
	}
	t.Logf("%s: %s", proto, got)
	return got
}

// testChoiceAsPgbench has pgbench and this runtime choose among weighted
// scripts with the same seed, two clients on two threads: each client
// must run the scripts in pgbench's order (its per-transaction log).
func testChoiceAsPgbench(t *testing.T, ctx context.Context, url string, open func() dbms.Engine) {
	pgbench := servertest.Pgbench(t)
	dir := t.TempDir()
	specs := []string{filepath.Join(dir, "a.sql@2"), filepath.Join(dir, "b.sql@3"), filepath.Join(dir, "c.sql@1")}
	for i, name := range []string{"a.sql", "b.sql", "c.sql"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("SELECT "+string(rune('1'+i))+";\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const clients, n = 2, 40
	args := []string{"-n", "-t", "40", "-c", "2", "-j", "2", "--random-seed=9", "-l", "--log-prefix=" + filepath.Join(dir, "log")}
	for _, s := range specs {
		args = append(args, "-f", s)
	}
	cmd := exec.CommandContext(ctx, pgbench, append(args, url)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pgbench: %v\n%s", err, out)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "log.*"))
	want := make([][]string, clients)
	for _, l := range logs {
		b, err := os.ReadFile(l)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			f := strings.Fields(line) // client transaction time script ...
			if len(f) < 4 {
				t.Fatalf("log line %q", line)
			}
			c := int(f[0][0] - '0')
			want[c] = append(want[c], f[3])
		}
	}
	var srcs []Source
	for _, s := range specs {
		src, err := LoadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, src)
	}
	p := mustProgram(t, Options{RandomSeed: 9}, srcs...)
	for i, c := range p.Clients(clients) {
		if err := c.Setup(ctx, open()); err != nil {
			t.Fatal(err)
		}
		var got []string
		for k := 0; k < n; k++ {
			r := c.Run(ctx, nil)
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			got = append(got, strconv.Itoa(r.Script))
		}
		if strings.Join(got, " ") != strings.Join(want[i], " ") {
			t.Errorf("client %d ran scripts\n %v\npgbench's client %d\n %v", i, got, i, want[i])
		}
	}
}

// testCompound: under the simple protocol PostgreSQL gets a `\;` compound
// in one message, as from pgbench: it runs as one implicit transaction (a
// failure undoes the statements before it), and \gset takes the last
// statement's row.
func testCompound(t *testing.T, ctx context.Context, open func() dbms.Engine) {
	e := open()
	for _, q := range []string{"DROP TABLE IF EXISTS ct", "CREATE TABLE ct (v INTEGER)"} {
		if _, err := e.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	src := "INSERT INTO ct VALUES (1) \\; SELECT 2 AS two \\; SELECT 3 AS three, 4 AS four \\gset\n" +
		"INSERT INTO ct VALUES (:four) \\; SELECT 1 / 0;\n"
	p := mustProgram(t, Options{Protocol: Simple}, scriptOf(t, "comp.sql", src))
	c := p.Clients(1)[0]
	if err := c.Setup(ctx, e); err != nil {
		t.Fatal(err)
	}
	r := c.Run(ctx, nil)
	if r.Err == nil || !strings.Contains(r.Err.Error(), "comp.sql:2:1") || !strings.Contains(r.Err.Error(), "division by zero") {
		t.Fatalf("got %v, want the division by zero of line 2", r.Err)
	}
	if v, _ := c.Variables().Text("four"); v != "4" {
		t.Errorf(":four = %q, want 4", v)
	}
	if _, ok := c.Variables().Text("two"); ok {
		t.Error("\\gset stored a column of a statement before the last")
	}
	rows, err := e.QueryRows(ctx, "SELECT v FROM ct ORDER BY v")
	if err != nil {
		t.Fatal(err)
	}
	if got := rowsText(rows); got != "1" {
		t.Errorf("rows %q, want only the first compound's 1 (the second one's insert undone with it)", got)
	}
}
