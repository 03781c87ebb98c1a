package userscript

import (
	"regexp"
	"slices"
	"strings"
)

// createTable finds the tables an SQL statement creates: CREATE [UNLOGGED
// | TEMPORARY] TABLE [IF NOT EXISTS] name, or Firebird's RECREATE TABLE.
var createTable = regexp.MustCompile(`(?i)^\s*(?:re)?create\s+(?:(?:unlogged|temp|temporary|global\s+temporary)\s+)?table\s+(?:if\s+not\s+exists\s+)?([A-Za-z_][A-Za-z0-9_$]*)(?:\s|\(|$)`)

// SizeTables are the tables the init script (its variant for engine)
// creates, in order: the sweep measures their size as the database's at
// each scale. None without an init script.
func (w *Workload) SizeTables(engine string) []string {
	if w.init == nil {
		return nil
	}
	var out []string
	for _, c := range w.init.For(engine).Commands {
		if c.SQL == nil {
			continue
		}
		for _, st := range c.SQL.Statements {
			var b strings.Builder
			for _, p := range st.Parts {
				if p.Var != "" {
					// A name made of variables is not known here.
					b.WriteByte(0)
				}
				b.WriteString(p.Lit)
			}
			if m := createTable.FindStringSubmatch(b.String()); m != nil && !slices.Contains(out, m[1]) {
				out = append(out, m[1])
			}
		}
	}
	return out
}
