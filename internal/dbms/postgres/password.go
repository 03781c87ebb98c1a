package postgres

import (
	"os"
	"path/filepath"

	"github.com/jackc/pgx/v5"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// passwordPlaces are where libpq, and pgx after it, find the password
// of a URL that gives none: pgx.ParseConfig reads them itself, so the
// adapter has no dbms.PasswordFinder.
const passwordPlaces = "$PGPASSWORD, ~/.pgpass ($PGPASSFILE)"

// usePassword gives cfg the password dbgauge's own variable holds
// (u.PasswordOrigin is set only for it here): it goes before libpq's
// places, which pgx read already, as the URL's own password would (in
// its user information or libpq's ?password=, both u.HasPass).
func usePassword(cfg *pgx.ConnConfig, u *dbms.URL) {
	if u.PasswordOrigin != "" {
		cfg.Password = u.Password
	}
}

// passwordFix ends the message of a refused password: where the password
// that failed came from (pgx does not say which of libpq's places it
// read), or where one can be given.
func passwordFix(u *dbms.URL, cfg *pgx.ConnConfig) string {
	switch {
	case u.HasPass || u.PasswordOrigin != "" || cfg.Password == "":
		return u.PasswordFix(passwordPlaces)
	case os.Getenv("PGPASSWORD") != "":
		return "fix the password in $PGPASSWORD"
	}
	file := u.Query.Get("passfile")
	if file == "" {
		file = os.Getenv("PGPASSFILE")
	}
	if file == "" {
		home, _ := os.UserHomeDir()
		file = filepath.Join(home, ".pgpass")
	}
	return "fix the password in " + file
}
