package expr

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// Expressions written by a seeded generator, unparenthesised where the
// grammar allows, so precedence and associativity meet in combinations no
// one listed by hand; pgbench is the judge of each.

var (
	leafTokens = []string{"0", "1", "2", "3", "7", "-1", "2.5", "0.5", "1e3", "true", "false", "NULL", ":i", ":d", ":b", ":n",
		"9223372036854775807", "-9223372036854775808", "pi()"}
	binaryOps = []string{"+", "-", "*", "/", "%", "<", "<=", ">", ">=", "=", "<>", "!=", "|", "#", "&", "<<", ">>", "AND", "OR"}
	prefixOps = []string{"-", "+", "~", "NOT "}
	postfixes = []string{" ISNULL", " NOTNULL", " IS NULL", " IS NOT NULL", " IS TRUE", " IS NOT FALSE"}
	funcs     = []string{"abs(%s)", "least(%s, %s)", "greatest(%s, %s, %s)", "int(%s)", "double(%s)", "sqrt(%s)",
		"exp(%s)", "ln(%s)", "pow(%s, %s)", "mod(%s, %s)", "hash(%s)", "hash_fnv1a(%s, %s)", "permute(%s, 10)", "debug(%s)",
		"random(0, %s)", "random_gaussian(0, 9, %s)"}
	randomDefines = map[string]string{"i": "5", "d": "1.25", "b": "true", "n": "null"}
)

func genExpr(r *rand.Rand, depth int) string {
	if depth <= 0 {
		return leafTokens[r.Intn(len(leafTokens))]
	}
	switch r.Intn(10) {
	case 0, 1, 2, 3:
		return genExpr(r, depth-1) + " " + binaryOps[r.Intn(len(binaryOps))] + " " + genExpr(r, depth-1)
	case 4:
		return prefixOps[r.Intn(len(prefixOps))] + genExpr(r, depth-1)
	case 5:
		return genExpr(r, depth-1) + postfixes[r.Intn(len(postfixes))]
	case 6:
		f := funcs[r.Intn(len(funcs))]
		args := make([]any, strings.Count(f, "%s"))
		for i := range args {
			args[i] = genExpr(r, depth-1)
		}
		return fmt.Sprintf(f, args...)
	case 7:
		return "(" + genExpr(r, depth-1) + ")"
	case 8:
		s := "CASE WHEN " + genExpr(r, depth-1) + " THEN " + genExpr(r, depth-1)
		if r.Intn(2) == 0 {
			s += " ELSE " + genExpr(r, depth-1)
		}
		return s + " END"
	}
	return leafTokens[r.Intn(len(leafTokens))]
}

// TestGeneratedExpressionsAgainstPgbench: 600 generated expressions. Those
// we evaluate go into one pgbench script of debug() lines, compared line by
// line; 40 of those we refuse (at run time or when parsing) are run one by
// one, and pgbench must refuse them with our message.
func TestGeneratedExpressionsAgainstPgbench(t *testing.T) {
	pgbenchPath(t)
	inst := servertest.Start(t, "postgres", server.Options{})
	r := rand.New(rand.NewSource(29))
	var mine bytes.Buffer
	ctx := clientContext(t, randomDefines, &mine)
	var script strings.Builder
	var refused []string
	accepted := 0
	for n := 0; n < 600; n++ {
		src := genExpr(r, 1+r.Intn(4))
		e, err := Parse("debug(" + src + ")\n")
		if err == nil {
			ctx.Command = accepted + 1
			before := mine.Len()
			saved := *ctx.Rand
			if _, err = e.Eval(ctx); err != nil {
				mine.Truncate(before)
				*ctx.Rand = saved // pgbench never runs this one in the script
			}
		}
		if err != nil {
			if len(refused) < 40 {
				refused = append(refused, src)
			}
			continue
		}
		accepted++
		fmt.Fprintf(&script, "\\set v debug(%s)\n", src)
	}
	stderr, err := runPgbench(t, inst.URL, script.String(), randomDefines)
	if err != nil {
		t.Fatalf("pgbench refused what we evaluate: %v\n%s", err, lastLines(stderr, 4))
	}
	got, ours := debugLines(stderr), debugLines(mine.String())
	if len(got) != len(ours) {
		t.Fatalf("pgbench printed %d debug lines, we %d", len(got), len(ours))
	}
	for i := range ours {
		if got[i] != ours[i] {
			t.Errorf("pgbench %s\n   ours %s", got[i], ours[i])
		}
	}
	t.Logf("%d generated expressions evaluated alike, %d debug lines", accepted, len(ours))

	for _, src := range refused {
		stderr, err := runPgbench(t, inst.URL, "\\set v debug("+src+")\n", randomDefines)
		if err == nil {
			t.Errorf("%s: pgbench accepted it", src)
			continue
		}
		var sink bytes.Buffer
		e, perr := Parse("debug(" + src + ")\n")
		msg := ""
		if perr != nil {
			msg = perr.Error() + " in command \"set\""
		} else if _, eerr := e.Eval(clientContext(t, randomDefines, &sink)); eerr != nil {
			msg = "pgbench: error: " + eerr.Error() + "\n"
		}
		if msg == "" || !strings.Contains(stderr, msg) {
			t.Errorf("%s: ours %q; pgbench says\n%s", src, msg, lastLines(stderr, 4))
		}
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

var soupTokens = []string{"1", "2.5", "true", "NULL", ":v", "abs(", "least(", "(", ")", ")", ",", "+", "-", "*", "<", "=",
	"<>", "IS", "NOT", "AND", "OR", "ISNULL", "NOTNULL", "CASE", "WHEN", "THEN", "ELSE", "END", "~", "#", "<<", "9223372036854775808"}

// TestGeneratedSyntaxAgainstPgbench: 120 sequences of tokens drawn at
// random, most of them wrong. pgbench reads each script before connecting;
// it must accept what we accept, and refuse the rest with our message at
// our column.
func TestGeneratedSyntaxAgainstPgbench(t *testing.T) {
	pgbenchPath(t)
	r := rand.New(rand.NewSource(2929))
	refused := 0
	for n := 0; n < 120; n++ {
		toks := make([]string, 2+r.Intn(7))
		for i := range toks {
			toks[i] = soupTokens[r.Intn(len(soupTokens))]
		}
		if compareSyntax(t, strings.Join(toks, " ")) {
			refused++
		}
	}
	t.Logf("%d of 120 refused by both", refused)
}
