package expr

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// The real pgbench 15 is the reference for everything in this package:
// these tests run it on scripts of \set commands against a private
// PostgreSQL and compare what it prints and inserts with Parse and Eval.

const pgbenchSeed = 20260528

// pgbenchDefines are -D variables given as text, read by ValueFromString.
var pgbenchDefines = map[string]string{
	"t_int": "  -42", "t_dbl": "2.5e3", "t_hex": "0x1p4", "t_yes": "YE",
	"t_off": "of", "t_null": "NuLL", "t_f": "f", "t_inf": "-inf", "t_big": "9223372036854775807",
	"t_n": "n", "t_sp": " 7",
}

// valueCases are expressions pgbench evaluates without error, covering
// every operator, precedence and associativity, the kinds, and every
// function; debug() prints each one's kind and value.
var valueCases = []string{
	// constants and kinds
	`1`, `-1`, `+7`, `-9223372036854775808`, `9223372036854775807`, `1.5`, `.5`, `1.`, `1e3`, `2.5E-3`, `1.0e+2`,
	`123456789012345678.0`, `0.1`, `1e15`, `1e14`, `123456.7890123456`, `0.0001`, `0.00001`, `1e-5`, `1e100`,
	`TRUE`, `false`, `NULL`, `pi()`, `Pi()`, `1.e2`, `-.5e1`, `TrUe AnD tRuE`, "5\tisnull", "1\v+\f2\r", `nOt false`,
	`0001`, `00.5`, `1E+2`,
	// arithmetic and promotion
	`1 + 2 * 3`, `(1 + 2) * 3`, `7 / 2`, `-7 / 2`, `7 % 3`, `-7 % 3`, `7 % -3`, `7.0 / 2`, `7 / 2.0`, `1 / 3.0`,
	`7.5 % 2`, `mod(-7, 3)`, `10 - 4 - 3`, `100 / 10 / 5`, `2 * 3 % 4`, `- 2 * 3`, `-(2 * 3)`, `- - 3`, `1 - -1`,
	`-9223372036854775808 % -1`, `-9223372036854775807 - 1`, `9223372036854775807 / -1`, `1.0 / 0`, `-1.0 / 0`,
	`0.0 / 0`, `1e308 * 10`, `3000000000 * 3000000000.0`,
	// bitwise
	`5 & 3`, `5 | 3`, `5 # 3`, `~5`, `~0`, `1 << 3`, `-16 >> 2`, `1 << 63`, `1 << 64`, `1 << 65`, `1 << -1`, `-1 >> 70`,
	`~1 + 2`, `~1 & 2`, `1 | 2 & 3`, `1 + 2 << 3`, `1 << 2 + 3`, `6 & 3 # 1`, `2.6 & 7`, `1 << 2.5`,
	// comparisons
	`1 < 2`, `2 > 1`, `1 <= 1`, `2 >= 3`, `1 = 1.0`, `1 <> 2`, `1 != 1`, `0.1 + 0.2 = 0.3`, `1 + 1 = 2`,
	// logic and NULL
	`true AND false`, `true OR false`, `NOT true`, `NOT 1 = 2`, `NOT NOT false`, `true AND NOT false OR false`,
	`false OR true AND false`, `NULL AND false`, `NULL OR true`, `true AND NULL`, `false OR NULL`, `false AND NULL`,
	`true OR NULL`, `false AND 1`, `true OR 1`, `true OR 2`, `NOT NULL`, `NULL + 1`, `1 - NULL`, `NULL = NULL`, `-NULL`, `~NULL`,
	`abs(NULL)`, `random(NULL, 2)`, `hash(NULL)`, `least(1, NULL)`, `greatest(NULL, 2.5)`,
	// IS and friends
	`NULL IS NULL`, `1 IS NULL`, `1 IS NOT NULL`, `NULL IS NOT NULL`, `true IS TRUE`, `false IS TRUE`, `1 IS TRUE`,
	`NULL IS FALSE`, `false IS NOT TRUE`, `true IS NOT FALSE`, `NULL ISNULL`, `2 ISNULL`, `2 NOTNULL`, `NULL NOTNULL`,
	`1 = 2 IS FALSE`, `1 ISNULL ISNULL`, `NULL IS NULL IS TRUE`, `1 ISNULL IS FALSE`, `NOT 1 ISNULL`, `- 1 NOTNULL`,
	`1 + NULL IS NULL`,
	// CASE
	`CASE WHEN 1 = 1 THEN 10 END`, `CASE WHEN false THEN 1 END`, `CASE WHEN false THEN 1 ELSE 2 END`,
	`CASE WHEN 0 THEN 1 WHEN 2.5 THEN 2 ELSE 3 END`, `CASE WHEN NULL THEN 1 WHEN 0.0 THEN 2 END`,
	`case when 1 > 2 then 10 when 2 > 1 then 20 else 30 end * 2`, `CASE WHEN true THEN CASE WHEN false THEN 1 ELSE 2 END END`,
	`CASE WHEN false THEN 1 / 0 ELSE 5 END`,
	// functions
	`abs(-5)`, `abs(-5.5)`, `abs(5)`, `abs(-9223372036854775808)`, `abs(true)`, `abs(false)`, `abs(-0.0)`,
	`least(3, 1, 2)`, `greatest(3, 1, 2)`, `least(3, 1.5, 2)`, `greatest(1, 2.5)`, `least(5)`, `LEAST(2.0, 1)`,
	`greatest(,1, 2)`, `least(0.0/0, 1)`, `greatest(1, 0.0/0)`,
	`sqrt(2)`, `sqrt(-1)`, `sqrt(16)`, `ln(10)`, `ln(0)`, `ln(-1)`, `exp(1)`, `exp(710)`, `exp(-1000)`,
	`pow(2, 10)`, `power(2.5, -2)`, `pow(-8, 1.0/3)`, `pow(0, 0)`, `pow(10, 308.5)`,
	`int(2.5)`, `int(3.5)`, `int(-2.5)`, `int(2.4999)`, `int(7)`, `int(1e18)`, `double(7)`, `double(2.5)`,
	`int(-9223372036854775808.0)`,
	`hash(42)`, `hash(42, 7)`, `hash_murmur2(-1)`, `hash_murmur2(0, 0)`, `hash_fnv1a(42)`, `hash_fnv1a(-123456789, 99)`,
	`hash_fnv1a(0, 0)`, `hash(2.6, 1.4)`, `hash(9223372036854775807, -9223372036854775808)`,
	`permute(0, 10)`, `permute(9, 10)`, `permute(3, 10, 5)`, `permute(-3, 10, 5)`, `permute(12345, 1000000, 42)`,
	`permute(7, 1)`, `permute(1, 2, 3)`, `permute(2, 3, 4)`, `permute(5, 9223372036854775807, -1)`,
	`permute(1000, 4294967296, 17)`, `permute(2.5, 7.5, 1)`,
	`debug(3) + 1`, `debug(NULL)`, `debug(true)`, `mod(7, 2.0)`,
	// variables given as text, and the automatic ones
	`:t_int + 1`, `:t_dbl * 2`, `:t_hex`, `:t_yes`, `:t_off`, `:t_null`, `:t_f`, `:t_inf`, `:t_big`, `:t_n`, `:t_sp`,
	`:client_id`, `:scale`, `:random_seed`, `:default_seed`, `-:t_int`,
	// the random functions, drawn from the client's generator in order
	`random(1, 10)`, `random(-5, 5)`, `random(1, 1000000000000)`, `random(0, 0)`, `random(-9223372036854775806, 0)`,
	`random(1.6, 3.4)`, `random_exponential(1, 100, 2.5)`, `random_exponential(1, 1000000, 0.1)`,
	`random_gaussian(1, 100, 2.0)`, `random_gaussian(1, 1000000, 5.5)`, `random_zipfian(1, 100, 1.5)`,
	`random_zipfian(1, 1000000, 1.001)`, `random_zipfian(1, 10, 1000)`, `random_zipfian(5, 5, 2)`,
	`random(1, 3) + random_gaussian(1, 3, 3)`,
}

// errorCases are expressions pgbench refuses while running, with the
// message it prints.
var errorCases = []string{
	`9223372036854775807 + 1`, `-9223372036854775808 - 1`, `4611686018427387904 * 2`, `-9223372036854775808 * -1`,
	`-9223372036854775808 / -1`, `1 / 0`, `1 % 0`, `1.5 % 0`, `true + 1`, `1 - false`, `1 < true`, `true & 1`,
	`NOT 1`, `1 AND true`, `true AND 1.5`, `false OR 2`, `int(1e19)`, `int(-9.3e18)`, `int(0.0 / 0)`, `int(true)`,
	`double(false)`, `sqrt(true)`, `random(10, 1)`, `random(-9223372036854775808, 9223372036854775807)`,
	`random(0, 9223372036854775807)`, `random_gaussian(1, 10, 1.9)`, `random_exponential(1, 10, 0)`,
	`random_zipfian(1, 10, 1.0)`, `random_zipfian(1, 10, 1000.5)`, `permute(1, 0)`, `permute(1, -5, 2)`,
	`hash(true)`, `:undefined_var + 1`, `:t_bad`, `:t_huge`, `:t_sign`, `least(1, true)`,
	`greatest(2.5, false)`, `pow(true, 2)`, `CASE WHEN 1 THEN 1 / 0 END`, `debug(1) + true`,
	`least(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17)`, `1 << true`, `(1 < 2) = (2 < 3)`, `abs(1) + abs(9223372036854775807) + 1`,
}

// errorDefines are -D variables the error cases read.
var errorDefines = map[string]string{"t_bad": "12abc", "t_huge": "99999999999999999999", "t_sign": "-"}

// syntaxCases are \set expressions pgbench refuses when it reads the script.
var syntaxCases = []string{
	`1 +`, `1 + foo(2)`, `abs(1, 2) + 3`, `99999999999999999999 + 3`, `1 < 2 < 3`, `1 < 2 = true`, `1 = 2 <> 3`, `(1 + 2`, `1 + 2)`,
	`1 @ 2`, `least()`, `greatest(1,)`, `pi(1)`, `random(1)`, `hash()`, `hash(1, 2, 3)`, `permute(1)`,
	`permute(1, 2, 3, 4)`, `CASE 1 END`, `CASE WHEN 1 END`, `CASE WHEN 1 THEN 2`, `CASE WHEN 1 THEN 2 ELSE 3`,
	`CASE WHEN 1 THEN 2 ELSE 3 ELSE 4 END`, `1 IS 2`, `1 IS NOT 2`, `1 2`, `abs`, `abs + 1`, `foo`, `5 - 9223372036854775808`,
	`9223372036854775808`, `+9223372036854775808`, `1e400`, `1e-400`, `1.5e-310`, `:`, `1 .`, `true(1)`, `(,1)`,
	`abs(,)`, `f@o`, `CASE WHEN 1 = 1 THEN 'x' END`, `1 +   `, `random(1, 2) ) + 3`, `1 AND AND 2`, `NOT`, `1 ISNULL NULL`, `CASE WHEN 1 THEN 2 END END`,
	`1 @ 2 @ 3`, `1.5.5`, `andy(1)`, `1 +* 2`, `:`, `: x`, `1 1e`, `(1))`, `CASE WHEN 1 THEN 2 WHEN END`, `abs(1`, `abs(1,`, `x`, `foo(1) + 99999999999999999999 + 1e999`, `1 + + 2 @`, `1 '`,
}

func pgbenchPath(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("pgbench")
	if err != nil {
		t.Fatalf("pgbench is not installed (Debian: apt-get install postgresql-client-15): %v", err)
	}
	return p
}

// runPgbench runs one pgbench client on script and returns its stderr.
func runPgbench(t *testing.T, url, script string, defines map[string]string, extra ...string) (string, error) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "script.sql")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-n", "-t", "1", "-f", file, "--random-seed=" + strconv.Itoa(pgbenchSeed)}
	for k, v := range defines {
		args = append(args, "-D", k+"="+v)
	}
	args = append(args, extra...)
	args = append(args, url)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, pgbenchPath(t), args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	return stderr.String(), err
}

// debugLines are the debug() lines of pgbench's stderr.
func debugLines(stderr string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "debug(") {
			out = append(out, l)
		}
	}
	return out
}

// clientContext is client 0 of a pgbench run with pgbenchSeed and defines.
func clientContext(t *testing.T, defines map[string]string, debug *bytes.Buffer) *Context {
	t.Helper()
	seeds := SeedClients(pgbenchSeed, 1, false)
	vars := &Variables{}
	for k, v := range defines {
		if err := vars.SetText(k, v); err != nil {
			t.Fatal(err)
		}
	}
	for name, v := range map[string]Value{"scale": Int(1), "client_id": Int(0), "default_seed": Int(seeds.DefaultSeed), "random_seed": Int(pgbenchSeed)} {
		if err := vars.SetValue(name, v); err != nil {
			t.Fatal(err)
		}
	}
	return &Context{Vars: vars, Rand: &seeds.Clients[0], Debug: debug}
}

func TestAgainstPgbench(t *testing.T) {
	pgbenchPath(t)
	inst := servertest.Start(t, "postgres", server.Options{})

	t.Run("values", func(t *testing.T) {
		var script strings.Builder
		for _, c := range valueCases {
			fmt.Fprintf(&script, "\\set v debug(%s)\n", c)
		}
		stderr, err := runPgbench(t, inst.URL, script.String(), pgbenchDefines)
		if err != nil {
			t.Fatalf("pgbench: %v\n%s", err, stderr)
		}
		got := debugLines(stderr)
		var mine bytes.Buffer
		ctx := clientContext(t, pgbenchDefines, &mine)
		var from []string // the case each of our lines came from
		for i, c := range valueCases {
			e, err := Parse(fmt.Sprintf("debug(%s)\n", c))
			if err != nil {
				t.Fatalf("%s: %v", c, err)
			}
			ctx.Command = i + 1
			if _, err := e.Eval(ctx); err != nil {
				t.Fatalf("%s: %v", c, err)
			}
			for len(from) < len(debugLines(mine.String())) {
				from = append(from, c)
			}
		}
		ours := debugLines(mine.String())
		if len(got) != len(ours) {
			t.Fatalf("pgbench printed %d debug lines, we %d", len(got), len(ours))
		}
		t.Logf("%d debug lines of %d expressions compared", len(ours), len(valueCases))
		for i := range ours {
			if got[i] != ours[i] {
				t.Errorf("%s:\n pgbench %s\n    ours %s", from[i], got[i], ours[i])
			}
		}
	})

	t.Run("text", func(t *testing.T) {
		// What a value looks like in SQL: the text pgbench passes as a
		// parameter (extended protocol), stored as it came.
		conn, err := pgx.Connect(context.Background(), inst.URL)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(context.Background(), "CREATE TABLE expr_text (n int, v text)"); err != nil {
			t.Fatal(err)
		}
		var script strings.Builder
		var mine []string
		var sink bytes.Buffer
		ctx := clientContext(t, pgbenchDefines, &sink)
		for i, c := range valueCases {
			fmt.Fprintf(&script, "\\set v %s\nINSERT INTO expr_text VALUES (%d, :v);\n", c, i)
			e, err := Parse(c)
			if err != nil {
				t.Fatalf("%s: %v", c, err)
			}
			v, err := e.Eval(ctx)
			if err != nil {
				t.Fatalf("%s: %v", c, err)
			}
			mine = append(mine, v.Text())
		}
		if stderr, err := runPgbench(t, inst.URL, script.String(), pgbenchDefines, "-M", "extended"); err != nil {
			t.Fatalf("pgbench: %v\n%s", err, stderr)
		}
		rows, err := conn.Query(context.Background(), "SELECT n, v FROM expr_text ORDER BY n")
		if err != nil {
			t.Fatal(err)
		}
		texts, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (string, error) {
			var n int
			var v string
			err := r.Scan(&n, &v)
			return v, err
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(texts) != len(valueCases) {
			t.Fatalf("pgbench inserted %d rows, want %d", len(texts), len(valueCases))
		}
		for i, c := range valueCases {
			if texts[i] != mine[i] {
				t.Errorf("%s: pgbench substitutes %q, ours %q", c, texts[i], mine[i])
			}
		}
	})

	t.Run("errors", func(t *testing.T) {
		defines := map[string]string{}
		for k, v := range pgbenchDefines {
			defines[k] = v
		}
		for k, v := range errorDefines {
			defines[k] = v
		}
		for _, c := range errorCases {
			stderr, _ := runPgbench(t, inst.URL, "\\set v "+c+"\n", defines)
			var sink bytes.Buffer
			e, err := Parse(c)
			if err != nil {
				t.Errorf("%s: %v", c, err)
				continue
			}
			_, err = e.Eval(clientContext(t, defines, &sink))
			if err == nil {
				t.Errorf("%s: no error; pgbench says\n%s", c, stderr)
				continue
			}
			if want := "pgbench: error: " + err.Error() + "\n"; !strings.Contains(stderr, want) {
				t.Errorf("%s: ours %q; pgbench says\n%s", c, err, stderr)
			}
		}
	})
}

// TestSyntaxErrorsAgainstPgbench: pgbench reads the script before it
// connects, so no server is needed to see where it points.
func TestSyntaxErrorsAgainstPgbench(t *testing.T) {
	pgbenchPath(t)
	for _, c := range syntaxCases {
		if !compareSyntax(t, c) {
			t.Errorf("%s: pgbench accepted it", c)
		}
	}
}

// compareSyntax has pgbench read "\set x src" (it reads a script before
// it connects, so no server is needed) and checks that Parse refuses src
// with pgbench's message at pgbench's column, or accepts it as pgbench
// does. It says whether pgbench refused it.
func compareSyntax(t *testing.T, src string) bool {
	t.Helper()
	const prefix = `\set x `
	stderr, _ := runPgbench(t, "host=/nonexistent", prefix+src+"\n", nil)
	_, perr := Parse(src + "\n")
	lines := strings.Split(stderr, "\n")
	if !strings.Contains(stderr, "error found here") || len(lines) < 3 {
		if perr != nil {
			t.Errorf("%s: pgbench accepts it, we say %v", src, perr)
		}
		return false
	}
	se, ok := perr.(interface{ Offset() int })
	if !ok {
		t.Errorf("%s: ours %v; pgbench says\n%s", src, perr, stderr)
		return true
	}
	if !strings.Contains(lines[0], ": "+perr.Error()+" in command \"set\"") {
		t.Errorf("%s: ours %q; pgbench says %q", src, perr.Error(), lines[0])
	}
	if caret, ours := strings.Index(lines[2], "^"), se.Offset()+len(prefix); caret != ours {
		t.Errorf("%s: ours at column %d, pgbench at %d:\n%s", src, ours, caret, stderr)
	}
	return true
}

// randomCommands draw from every random function; each value carries the
// client that drew it (client_id * 10^12) so the clients' streams can be
// told apart in pgbench's output.
var randomCommands = []string{
	`:client_id * 1000000000000 + random(1, 1000000)`,
	`:client_id * 1000000000000 + random(-3, 3)`,
	`:client_id * 1000000000000 + random_exponential(1, 1000000, 3.5)`,
	`:client_id * 1000000000000 + random_exponential(1, 100, 0.2)`,
	`:client_id * 1000000000000 + random_gaussian(1, 1000000, 2.5)`,
	`:client_id * 1000000000000 + random_gaussian(-50, 50, 7)`,
	`:client_id * 1000000000000 + random_zipfian(1, 1000000, 1.07)`,
	`:client_id * 1000000000000 + random_zipfian(1, 100, 3.0)`,
	`:client_id * 1000000000000 + permute(random(0, 999999), 1000000)`,
	`:client_id * 1000000000000 + int(1000000 * pow(random(1, 1000000) / 997.0, 1.37)) % 1000000000`,
	`:client_id * 1000000000000 + int(1000000 * exp(random(-20000, 20000) / 1000.0)) % 1000000000`,
	`:client_id * 1000000000000 + int(1000000 * ln(random(1, 1000000000) / 7.0))`,
}

// TestRandomAgainstPgbench: three clients each draw 400 times from every
// random function (and from exp, ln and pow of random arguments, where Go's
// and the C library's last bits could part); with pgbench's seeding
// reproduced, every draw of every client must be pgbench's, so the
// distributions are equal by construction rather than by a test of fit.
func TestRandomAgainstPgbench(t *testing.T) {
	pgbenchPath(t)
	inst := servertest.Start(t, "postgres", server.Options{})
	const clients, transactions = 3, 400
	var script strings.Builder
	for _, c := range randomCommands {
		fmt.Fprintf(&script, "\\set v debug(%s)\n", c)
	}
	stderr, err := runPgbench(t, inst.URL, script.String(), nil, "-c", strconv.Itoa(clients), "-j", "1", "-t", strconv.Itoa(transactions))
	if err != nil {
		t.Fatalf("pgbench: %v\n%s", err, stderr)
	}
	// theirs[client][command] is the sequence pgbench printed.
	type key struct{ client, command int }
	theirs := map[key][]int64{}
	for _, l := range debugLines(stderr) {
		var command int
		var v int64
		if _, err := fmt.Sscanf(l, "debug(script=0,command=%d): int %d", &command, &v); err != nil {
			t.Fatalf("unexpected debug line %q: %v", l, err)
		}
		client := int((v + 500000000000) / 1000000000000) // draws lie within ±5*10^11
		theirs[key{client, command}] = append(theirs[key{client, command}], v)
	}
	exprs := make([]*Expr, len(randomCommands))
	for i, c := range randomCommands {
		if exprs[i], err = Parse(c); err != nil {
			t.Fatal(err)
		}
	}
	seeds := SeedClients(pgbenchSeed, clients, false)
	compared := 0
	for client := 0; client < clients; client++ {
		vars := &Variables{}
		vars.SetValue("client_id", Int(int64(client)))
		vars.SetValue("default_seed", Int(seeds.DefaultSeed))
		ctx := &Context{Vars: vars, Rand: &seeds.Clients[client]}
		ours := map[int][]int64{}
		for tx := 0; tx < transactions; tx++ {
			for i, e := range exprs {
				v, err := e.Eval(ctx)
				if err != nil {
					t.Fatalf("%s: %v", randomCommands[i], err)
				}
				ours[i+1] = append(ours[i+1], v.IntVal())
			}
		}
		for command, seq := range ours {
			got := theirs[key{client, command}]
			if len(got) != len(seq) {
				t.Fatalf("client %d, %s: pgbench drew %d values, we %d", client, randomCommands[command-1], len(got), len(seq))
			}
			for i := range seq {
				if got[i] != seq[i] {
					t.Errorf("client %d, %s, draw %d: pgbench %d, ours %d", client, randomCommands[command-1], i, got[i], seq[i])
					break
				}
				compared++
			}
		}
	}
	t.Logf("%d draws compared", compared)
}
