package parse

import (
	"fmt"
	"math/bits"
	"strings"
)

// AutomaticVariables are the variables pgbench sets in every client before
// the script runs.
var AutomaticVariables = []string{"client_id", "default_seed", "random_seed", "scale"}

// CheckExtended is the check a runtime makes before it runs s under the
// extended or prepared protocol, where every ":name" in SQL becomes a bound
// parameter (under the simple protocol an undefined name stays as text and
// any number is allowed, so the runtime does not call it then):
//
//   - an SQL command holds at most MaxVars variable references;
//   - every variable an SQL command uses is defined before it on some path
//     through the \if branches: by \set or \setshell, by a \gset or \aset
//     whose query may return a column of that name (after its prefix), or
//     it is automatic (AutomaticVariables) or in defined (the -D names).
//
// pgbench binds an undefined variable as NULL without a word; refusing it
// catches the misspelt name before anything runs. The error is an *Error
// at the offending reference.
func (s *Script) CheckExtended(defined []string) error {
	pre := map[string]bool{}
	for _, v := range AutomaticVariables {
		pre[v] = true
	}
	for _, v := range defined {
		pre[v] = true
	}
	n := len(s.Commands)
	words := (n + 63) / 64
	// before[i] is the set of commands that may have run before command i
	// and define something; reached[i] says whether command i runs at all.
	before := make([][]uint64, n+1)
	reached := make([]bool, n+1)
	reached[0] = true
	for i := range before {
		before[i] = make([]uint64, words)
	}
	for i := 0; i < n; i++ {
		if !reached[i] {
			continue
		}
		c := &s.Commands[i]
		if c.Kind == KindSQL {
			if err := s.checkSQL(c, pre, before[i]); err != nil {
				return err
			}
		}
		out := before[i]
		if defines(c) {
			out = append([]uint64(nil), out...)
			out[i/64] |= 1 << (i % 64)
		}
		s.successors(i, func(j int) {
			reached[j] = true
			for w := range out {
				before[j][w] |= out[w]
			}
		})
	}
	return nil
}

func defines(c *Command) bool {
	return c.Kind == KindSet || c.Kind == KindSetShell || c.Kind == KindSQL && c.SQL.Capture != CaptureNone
}

func (s *Script) checkSQL(c *Command, pre map[string]bool, before []uint64) error {
	count := 0
	for _, part := range c.SQL.Whole.Parts {
		if part.Var == "" {
			continue
		}
		count++
		if count > MaxVars {
			return &Error{File: s.Name, Pos: part.Pos, Msg: fmt.Sprintf("statement has too many arguments (maximum is %d): split the command, or run it under the simple protocol", MaxVars)}
		}
		if pre[part.Var] || s.mayDefine(before, part.Var) {
			continue
		}
		return &Error{File: s.Name, Pos: part.Pos, Msg: fmt.Sprintf("undefined variable %q: no \\set, \\setshell, \\gset, \\aset or -D before this command defines it (check its spelling)", part.Var)}
	}
	return nil
}

// mayDefine reports whether one of the commands in set may define name.
func (s *Script) mayDefine(set []uint64, name string) bool {
	for w, bitsLeft := range set {
		for bitsLeft != 0 {
			b := bits.TrailingZeros64(bitsLeft)
			bitsLeft &^= 1 << b
			d := &s.Commands[w*64+b]
			switch d.Kind {
			case KindSet, KindSetShell:
				if d.Var == name {
					return true
				}
			case KindSQL:
				// The result's column names are not known before the
				// query runs: any word of the query could name one (an
				// alias, a column, a MySQL-style expression name), in any
				// case the engine folds it to; a "*" could name anything.
				rest, ok := strings.CutPrefix(name, d.SQL.Prefix)
				if ok && rest != "" && (d.SQL.star || d.SQL.names[strings.ToLower(rest)]) {
					return true
				}
			}
		}
	}
	return false
}
