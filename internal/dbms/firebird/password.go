package firebird

import (
	"os"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// Firebird's own tools (isql-fb, gbak, fbclient) take the user and the
// password a connection gives none of from $ISC_USER and $ISC_PASSWORD.

// passwordPlaces is where Firebird's tools find a password.
const passwordPlaces = "$ISC_PASSWORD"

// findPassword is $ISC_PASSWORD (dbms.PasswordFinder).
func findPassword(*dbms.URL) (password, origin string, err error) {
	if pw := os.Getenv("ISC_PASSWORD"); pw != "" {
		return pw, "$ISC_PASSWORD", nil
	}
	return "", "", nil
}

// userOf is the user a URL logs in as: its own, else $ISC_USER, else
// SYSDBA.
func userOf(u *dbms.URL) string {
	if u.User != "" {
		return u.User
	}
	if user := os.Getenv("ISC_USER"); user != "" {
		return user
	}
	return "SYSDBA"
}
