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
//  2. the engine's own places, as its client tools read them: MariaDB's
//     option files and $MYSQL_PWD, Firebird's $ISC_PASSWORD (each
//     adapter's FindPassword); PostgreSQL's $PGPASSWORD and ~/.pgpass,
//     which pgx reads itself.
//
// OpenNode looks, so every session dbgauge opens finds it the same way.
// A password written in the URL (user:password@, or libpq's ?password=)
// goes before them all.

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
// before it, or its query parameter): for a child process's command
// line, which the password reaches by its environment instead.
func (u *URL) WithoutPassword() string {
	s := u.Raw
	if u.passParam {
		s = withoutParam(s, "password")
	}
	if !u.userPass {
		return s
	}
	if a, b := u.pass[0], u.pass[1]; 1 < a && a <= b && b <= len(s) && s[a-1] == ':' {
		return s[:a-1] + s[b:]
	}
	pw, _ := u.userPassword()
	return strings.Replace(s, ":"+url.UserPassword("", pw).String()[1:]+"@", "@", 1)
}

// takePassword moves libpq's ?password= from Query to Password: a
// password written in the URL, whichever way, is the URL's (HasPass),
// hidden by Redacted, and no driver gets it as a parameter. As in libpq,
// it goes before the user information's.
func (u *URL) takePassword() {
	v, ok := u.Query["password"]
	if !ok {
		return
	}
	u.Query.Del("password")
	u.Password, u.HasPass, u.passParam = v[len(v)-1], true, true
}

// userPassword is the password of the URL's user information.
func (u *URL) userPassword() (string, bool) {
	if !u.userPass {
		return "", false
	}
	if !u.passParam {
		return u.Password, true
	}
	if a, b := u.pass[0], u.pass[1]; 0 < a && a <= b && b <= len(u.Raw) {
		pw, err := url.PathUnescape(u.Raw[a:b])
		return pw, err == nil
	}
	return "", false
}
