package parse

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runPgbench gives a script to the installed pgbench, pointed at a socket
// directory that does not exist: a script it refuses fails before it
// connects, one it accepts fails on connecting. It returns pgbench's stderr
// and whether pgbench got as far as connecting.
func runPgbench(t *testing.T, pgbench, script, flags string) (string, bool) {
	t.Helper()
	dir := t.TempDir()
	f := filepath.Join(dir, "f.sql")
	if err := os.WriteFile(f, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-h", filepath.Join(dir, "no-server"), "-p", "1", "-n", "-t", "1"}
	args = append(args, strings.Fields(flags)...)
	args = append(args, "-f", f)
	cmd := exec.Command(pgbench, args...)
	// Only our options say where the server is: no PG* variable of the
	// caller's environment.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") && !strings.HasPrefix(kv, "LC_") && !strings.HasPrefix(kv, "LANG") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "LC_ALL=C")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil {
		t.Fatalf("pgbench ran with no server: %s", stderr.String())
	}
	out := stderr.String()
	return out, strings.Contains(out, "connection to server")
}

// TestPgbenchCasesAgainstPgbench checks what the case table says of pgbench
// with the installed pgbench itself: the cases it marks as refused at parse
// time are refused before connecting, with the message pgbench's test looks
// for; the others get as far as connecting.
func TestPgbenchCasesAgainstPgbench(t *testing.T) {
	pgbench := lookPgbench(t)
	for _, c := range pgbenchCases {
		t.Run(c.name, func(t *testing.T) {
			out, connected := runPgbench(t, pgbench, c.script, c.flags)
			if c.atParse {
				if connected {
					t.Fatalf("pgbench accepted the script, the table says it refuses it:\n%s", out)
				}
				if !regexp.MustCompile(c.pgbench).MatchString(out) {
					t.Errorf("pgbench said %q, the table expects %s", out, c.pgbench)
				}
			} else if !connected {
				t.Errorf("pgbench refused the script before connecting, the table says it does not:\n%s", out)
			}
		})
	}
	for _, c := range pgbenchScripts {
		t.Run(c.name, func(t *testing.T) {
			if out, connected := runPgbench(t, pgbench, c.script, c.flags); !connected {
				t.Errorf("pgbench refused a valid script of its tests:\n%s", out)
			}
		})
	}
}

// TestSplittingAgreesWithPgbench gives pgbench scripts that our lexer
// accepts and that would be refused if it split them elsewhere: a \gset
// after a command that only ends where psql's lexer ends it, and \if
// chains inside quoted text that must not count.
func TestSplittingAgreesWithPgbench(t *testing.T) {
	pgbench := lookPgbench(t)
	for _, script := range []string{
		// The \gset must follow an SQL command: if the quote or comment
		// ended the command early, the "\gset" would be a meta-command
		// after a meta-command or stand alone.
		"SELECT 'a;\n\\else' AS x \\gset\n",
		"SELECT $$ ; \\endif $$ AS x \\gset\n",
		"SELECT /* ; /* \\endif */ ; */ 1 AS x \\gset\n",
		"SELECT E'\\'; \\endif' AS x \\gset\n",
		"SELECT \"a;\\endif\" FROM t \\gset\n",
		"SELECT 1 -- it's \\endif\n AS x \\gset\n",
		"SELECT f(1;\n2) AS x \\gset\n",
		// An E string continued on the next line keeps its escapes.
		"SELECT E'a'\n'\\' \\endif' AS x \\gset\n",
		"SELECT $a1$ ; \\endif $a1$ AS x \\gset\n",
		// A block comment alone is a command (the server answers it with
		// an empty result), so a second \gset has an SQL command before it.
		"SELECT 1 AS a \\gset\n/* c */ \\gset\n",
		// Letters glued to a number are part of it (PostgreSQL 15): the e
		// starts no E string, so the quote closes after the backslash.
		"SELECT 1e'\\' AS x \\gset\n",
		"SELECT 1xe'\\' AS x \\gset\n",
		"SELECT 1e+'\\' AS x \\gset\n",
		"SELECT 1$a$ ; \\endif $a$ AS x \\gset\n",
		// A "--" comment may stand between the parts of a continued string.
		"SELECT E'a' -- c\n'\\' \\endif' AS x \\gset\n",
	} {
		out, connected := runPgbench(t, pgbench, script, "")
		if !connected {
			t.Errorf("pgbench refused %q:\n%s", script, out)
		}
		if _, err := Parse("f.sql", script, testOpts); err != nil {
			t.Errorf("we refused %q, pgbench accepts it: %v", script, err)
		}
	}
	for _, script := range []string{
		// The same with the quote closed before the meta-command: now it
		// is one, and both refuse the stray \else or \endif.
		"SELECT 'a;'\n\\else\n",
		"SELECT $$ ; $$;\n\\endif\n",
		"SELECT E'\\\\'; \\endif\n",
		"SELECT U&'\\' \\endif' AS x \\gset\n",
		"SELECT $1a$ ; \\endif $a$ AS x \\gset\n",
		// A block comment ends a continued string: 'b\' is a new one.
		"SELECT E'a' /* c */\n 'b\\' \\endif' AS x \\gset\n",

		// A "--" comment is dropped: the second \gset has none before it.
		"SELECT 1 AS a \\gset\n-- c\n\\gset\n",
	} {
		if _, connected := runPgbench(t, pgbench, script, ""); connected {
			t.Errorf("pgbench accepted %q", script)
		}
		if _, err := Parse("f.sql", script, testOpts); err == nil {
			t.Errorf("we accepted %q, pgbench refuses it", script)
		}
	}
}
