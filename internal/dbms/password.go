package dbms

import (
	"fmt"
	"net/url"
	"os"
	"strings"
)

// A password need not be written in --db, where every process list shows
// it. A server URL without one takes it, in this order, from:
//
//  1. PasswordEnv, dbgauge's own variable: the runs dbgauge starts itself
//     (the web interface's) get the password of their --db through it;
//  2. the engine's own places, as its client tools read them
//     (Adapter.FindPassword: PostgreSQL's $PGPASSWORD and ~/.pgpass,
//     MariaDB's option files and $MYSQL_PWD, Firebird's $ISC_PASSWORD).
//
// OpenNode looks, so every session dbgauge opens finds it the same way.

// PasswordEnv is the environment variable holding the password of a
// server URL that gives none.
const PasswordEnv = "DBGAUGE_DB_PASSWORD"

// PasswordFinder is an engine's ability to find a password where its own
// client tools would (Adapter.FindPassword).
type PasswordFinder func(u *URL) (password, origin string, err error)

// withPassword is u with the password dbgauge's variable or the
// adapter's places hold, when u gives none; u itself when none does.
func (a *Adapter) withPassword(u *URL) (*URL, error) {
	if u.HasPass || u.Path != "" {
		return u, nil
	}
	pw, origin := os.Getenv(PasswordEnv), "$"+PasswordEnv
	if pw == "" && a.FindPassword != nil {
		var err error
		if pw, origin, err = a.FindPassword(u); err != nil {
			return nil, &Error{Class: BadInput, Err: fmt.Errorf("find the password of --db %s: %w", u.Redacted(), err)}
		}
	}
	if pw == "" {
		return u, nil
	}
	n := *u
	n.Password, n.PasswordOrigin = pw, origin
	return &n, nil
}

// PasswordFix is the end of a message about a refused login: where the
// password that failed came from, or, when there was none, where one can
// be given (places: the engine's own, as "$PGPASSWORD or ~/.pgpass").
func (u *URL) PasswordFix(places string) string {
	switch {
	case u.HasPass:
		return "fix the password in --db"
	case u.PasswordOrigin != "":
		return "fix the password in " + u.PasswordOrigin
	}
	return "no password was given: give it in $" + PasswordEnv + ", " + places + " or --db (user:password@)"
}

// WithoutPassword is u as written, less its password (and the colon
// before it): for a child process's command line, which the password
// reaches by its environment instead.
func (u *URL) WithoutPassword() string {
	if !u.HasPass {
		return u.Raw
	}
	if a, b := u.pass[0], u.pass[1]; 1 < a && a <= b && b <= len(u.Raw) && u.Raw[a-1] == ':' {
		return u.Raw[:a-1] + u.Raw[b:]
	}
	return strings.Replace(u.Raw, ":"+url.UserPassword("", u.Password).String()[1:]+"@", "@", 1)
}
