package script

import (
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload/script/parse"
)

// A script's transaction statements are the engine's own begin, commit and
// rollback (dbms.Transactor), not SQL sent as written: Firebird has no
// BEGIN statement (a transaction starts through its protocol), MariaDB has
// no END, and each engine sets its isolation level its own way. What counts
// as one (docs/pgbench-scripts.md §7), in any letter case:
//
//	BEGIN [WORK | TRANSACTION] [ISOLATION LEVEL level]
//	START TRANSACTION [ISOLATION LEVEL level]
//	COMMIT | END [WORK | TRANSACTION]
//	ROLLBACK | ABORT [WORK | TRANSACTION]
//
// level is READ COMMITTED, REPEATABLE READ or SERIALIZABLE. Anything else
// (BEGIN READ ONLY, SAVEPOINT, ROLLBACK TO ..., COMMIT AND CHAIN) is SQL and
// goes to the engine as written.

type controlKind int

const (
	ctlNone controlKind = iota
	ctlBegin
	ctlCommit
	ctlRollback
)

// control is a transaction statement: its kind and, for a begin that names
// one, its isolation level.
type control struct {
	kind   controlKind
	iso    dbms.Isolation
	hasIso bool
}

var isoWords = map[string]dbms.Isolation{
	"READ COMMITTED":  dbms.ReadCommitted,
	"REPEATABLE READ": dbms.RepeatableRead,
	"SERIALIZABLE":    dbms.Serializable,
}

// controlOf recognises a transaction statement; a statement with a variable
// in it is none.
func controlOf(t parse.Text) control {
	if len(t.Parts) != 1 || t.Parts[0].Var != "" {
		return control{}
	}
	words := strings.Fields(strings.ToUpper(t.Parts[0].Lit))
	if len(words) == 0 {
		return control{}
	}
	rest := words[1:]
	var c control
	switch words[0] {
	case "BEGIN":
		c.kind = ctlBegin
		if len(rest) > 0 && (rest[0] == "WORK" || rest[0] == "TRANSACTION") {
			rest = rest[1:]
		}
	case "START":
		if len(rest) == 0 || rest[0] != "TRANSACTION" {
			return control{}
		}
		c.kind, rest = ctlBegin, rest[1:]
	case "COMMIT", "END":
		c.kind = ctlCommit
	case "ROLLBACK", "ABORT":
		c.kind = ctlRollback
	default:
		return control{}
	}
	if c.kind != ctlBegin {
		if len(rest) == 1 && (rest[0] == "WORK" || rest[0] == "TRANSACTION") {
			rest = nil
		}
		if len(rest) > 0 {
			return control{}
		}
		return c
	}
	if len(rest) == 0 {
		return c
	}
	if len(rest) < 3 || rest[0] != "ISOLATION" || rest[1] != "LEVEL" {
		return control{}
	}
	iso, ok := isoWords[strings.Join(rest[2:], " ")]
	if !ok {
		return control{}
	}
	c.iso, c.hasIso = iso, true
	return c
}

// beginsTransaction says whether t, no statement controlOf recognises,
// still begins a transaction by its first word (BEGIN IMMEDIATE on SQLite,
// START TRANSACTION READ ONLY): the engine gets it as written, and the
// COMMIT or ROLLBACK that ends it too, where the adapter's session knows
// nothing of that transaction (on PostgreSQL it follows the server's).
func beginsTransaction(t parse.Text) bool {
	if len(t.Parts) == 0 || t.Parts[0].Var != "" {
		return false
	}
	first, _, _ := strings.Cut(strings.TrimSpace(t.Parts[0].Lit), " ")
	first = strings.ToUpper(strings.TrimSpace(first))
	return first == "BEGIN" || first == "START"
}
