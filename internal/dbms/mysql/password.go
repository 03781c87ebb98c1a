package mysql

import (
	"os"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// passwordPlaces are where MariaDB's clients find a password.
const passwordPlaces = "password= under [client] in ~/.my.cnf, $MYSQL_PWD"

// findPassword finds the password of a URL that gives none as MariaDB's
// and MySQL's clients do (dbms.PasswordFinder): the option files first,
// then $MYSQL_PWD (libmariadb reads the variable only when no option
// gave a password).
func findPassword(*dbms.URL) (password, origin string, err error) {
	pw, file, err := clientOption(optionFiles(), "password")
	if err != nil || file != "" {
		return pw, file, err
	}
	if pw := os.Getenv("MYSQL_PWD"); pw != "" {
		return pw, "$MYSQL_PWD", nil
	}
	return "", "", nil
}
