package mysql

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/dbms/dbmstest"
	"github.com/dbgauge/dbgauge/internal/server"
	"github.com/dbgauge/dbgauge/internal/server/servertest"
)

// TestPasswordOutsideURL gives the password of a user that must give one
// the ways MariaDB's clients take it, and dbgauge's own variable, to a
// URL without it: option files before $MYSQL_PWD, as libmariadb reads
// them; a refusal says where the password that failed came from, or
// where to give one.
func TestPasswordOutsideURL(t *testing.T) {
	inst := servertest.Start(t, "mariadb", server.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	root, err := dbms.Open(ctx, inst.URL)
	if err != nil {
		t.Fatal(err)
	}
	const pw = `s3cret #"pass`
	for _, host := range []string{"%", "localhost", "127.0.0.1"} {
		for _, q := range []string{
			fmt.Sprintf("CREATE USER 'gauge'@'%s' IDENTIFIED BY 's3cret #\"pass'", host),
			fmt.Sprintf("GRANT ALL ON *.* TO 'gauge'@'%s'", host),
		} {
			if _, err := root.Exec(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	}
	root.Close()
	u, err := dbms.ParseURL(inst.URL)
	if err != nil {
		t.Fatal(err)
	}
	raw := fmt.Sprintf("mariadb://gauge@%s/%s", u.Addr(defaultPort), u.Database)
	// The option file as people write them: other groups, comments,
	// a quoted value with escapes and a #.
	cnf := "# mine\n[mysqld]\npassword=not-this\n[client]\nuser = gauge ; not a comment\npassword = \"s3cret\\s#\\\"pass\"  # the server's\n[mysqldump]\npassword=nor-this\n"
	dbmstest.CheckPasswords(t, raw, "SELECT CURRENT_USER()", []string{"MYSQL_PWD", "MYSQL_HOME", "MARIADB_HOME"}, []dbmstest.PasswordCase{
		{Name: "none", Says: "no password was given: give it in $" + dbms.PasswordEnv + ", " + passwordPlaces},
		{Name: "my.cnf", Files: map[string]string{".my.cnf": cnf}, User: "gauge@"},
		{Name: "MYSQL_PWD", Env: map[string]string{"MYSQL_PWD": pw}, User: "gauge@"},
		{Name: "my.cnf-before-MYSQL_PWD", Env: map[string]string{"MYSQL_PWD": "wrong"}, Files: map[string]string{".my.cnf": cnf}, User: "gauge@"},
		{Name: "MARIADB_HOME", Env: map[string]string{"MARIADB_HOME": "$HOME"}, Files: map[string]string{"my.cnf": "[client-mariadb]\npassword='s3cret #\"pass'\n"}, User: "gauge@"},
		{Name: "my.cnf-wrong", Files: map[string]string{".my.cnf": "[client]\npassword=wrong\n"}, Says: "fix the password in $HOME/.my.cnf"},
		{Name: "MYSQL_PWD-wrong", Env: map[string]string{"MYSQL_PWD": "wrong"}, Says: "fix the password in $MYSQL_PWD"},
		{Name: "dbgauge-first", Env: map[string]string{dbms.PasswordEnv: pw, "MYSQL_PWD": "wrong"}, Files: map[string]string{".my.cnf": "[client]\npassword=wrong\n"}, User: "gauge@"},
	})
}

// TestOptionFile reads the password as MariaDB's clients read their
// option files (mysys/my_default.c): the client groups only, the last
// setting winning, included files, comments, quotes and escapes, and no
// value from "password" alone (the clients ask on the terminal) or from
// a world-writable file (the clients ignore it).
func TestOptionFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("conf.d/b.cnf", "[client]\npassword=from-b\n", 0o600)
	write("conf.d/a.cnf", "[client]\npassword=from-a\n", 0o600)
	write("conf.d/c.txt", "[client]\npassword=not-cnf\n", 0o600)
	for _, tc := range []struct{ name, text, want string }{
		{"plain", "[client]\npassword=abc\n", "abc"},
		{"spaces", "[client]\n  password  =  a b  \n", "a b"},
		{"other-group", "[mysqld]\npassword=abc\n", ""},
		{"group-case", "[CLIENT]\npassword=abc\n", "abc"},
		{"last-wins", "[client]\npassword=one\n[client-server]\npassword=two\n", "two"},
		{"comment", "[client]\npassword=abc # the root's\n#password=old\n;password=older\n", "abc"},
		{"quoted-hash", "[client]\npassword=\"a#b\"\n", "a#b"},
		{"single-quoted", "[client]\npassword='a \"b'\n", `a "b`},
		{"escapes", "[client]\npassword=a\\sb\\tc\\\\d\\qe\n", "a b\tc\\d\\qe"},
		{"prompt", "[client]\npassword=abc\npassword\n", "abc"},
		{"underscore-key", "[client]\npass_word=abc\n", ""},
		{"includedir", "[client]\npassword=first\n!includedir " + filepath.Join(dir, "conf.d") + "\n", "from-b"},
		{"include", "!include " + filepath.Join(dir, "conf.d", "a.cnf") + "\n", "from-a"},
	} {
		p := write(tc.name+".cnf", tc.text, 0o600)
		got, file, err := clientOption([]string{filepath.Join(dir, "missing.cnf"), p}, "password")
		if err != nil || got != tc.want || (tc.want != "" && file != p) {
			t.Errorf("%s: %q from %q (%v), want %q", tc.name, got, file, err, tc.want)
		}
	}
	p := write("open.cnf", "[client]\npassword=abc\n", 0o666)
	if got, _, err := clientOption([]string{p}, "password"); got != "" || err != nil {
		t.Errorf("a world-writable option file gave %q (%v), want nothing", got, err)
	}
	if got, _, err := clientOption([]string{dir, filepath.Join(dir, "plain.cnf")}, "password"); got != "abc" || err != nil {
		t.Errorf("a directory among the files: %q (%v), want it skipped and abc", got, err)
	}
	loop := write("loop.cnf", "!include "+filepath.Join(dir, "loop.cnf")+"\n", 0o600)
	if _, _, err := clientOption([]string{loop}, "password"); err == nil {
		t.Errorf("a file that includes itself: no error")
	}
}
