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
// catches the misspelt name before anything runs (docs/pgbench-scripts.md
// §5). The error is an *Error at the offending reference.
func (s *Script) CheckExtended(defined []string) error {
	pre := map[string]bool{}
	for _, v := range AutomaticVariables {
		pre[v] = true
	}
	for _, v := range defined {
		pre[v] = true
	}
	// Each command that defines something gets a bit; before[i] is the
	// set of them that may have run before command i. Jumps only go
	// forward, so a state is complete when its command's turn comes, and
	// dropped after: only the states of commands ahead are kept.
	n := len(s.Commands)
	bit := make([]int, n)
	var definers []int // by bit, the command
	for i := range s.Commands {
		bit[i] = -1
		if defines(&s.Commands[i]) {
			bit[i] = len(definers)
			definers = append(definers, i)
		}
	}
	words := (len(definers) + 63) / 64
	before := map[int][]uint64{0: make([]uint64, words)}
	for i := 0; i < n; i++ {
		in, ok := before[i]
		if !ok {
			continue // not reached
		}
		delete(before, i)
		c := &s.Commands[i]
		if c.Kind == KindSQL {
			if err := s.checkSQL(c, pre, in, definers); err != nil {
				return err
			}
		}
		if b := bit[i]; b >= 0 {
			in[b/64] |= 1 << (b % 64)
		}
		s.successors(i, func(j int) {
			if st, ok := before[j]; ok {
				for w := range in {
					st[w] |= in[w]
				}
			} else {
				before[j] = append([]uint64(nil), in...)
			}
		})
	}
	return nil
}

func defines(c *Command) bool {
	return c.Kind == KindSet || c.Kind == KindSetShell || c.Kind == KindSQL && c.SQL.Capture != CaptureNone
}

func (s *Script) checkSQL(c *Command, pre map[string]bool, before []uint64, definers []int) error {
	count := 0
	for _, part := range c.SQL.Whole.Parts {
		if part.Var == "" {
			continue
		}
		count++
		if count > MaxVars {
			return &Error{File: s.Name, Pos: part.Pos, Msg: fmt.Sprintf("statement has too many arguments (maximum is %d): split the command, or run it under the simple protocol", MaxVars)}
		}
		if pre[part.Var] || s.mayDefine(before, definers, part.Var) {
			continue
		}
		return &Error{File: s.Name, Pos: part.Pos, Msg: fmt.Sprintf("undefined variable %q: no \\set, \\setshell, \\gset, \\aset or -D before this command defines it (check its spelling)", part.Var)}
	}
	return nil
}

// mayDefine reports whether one of the commands in set (by their bits)
// may define name.
func (s *Script) mayDefine(set []uint64, definers []int, name string) bool {
	for w, left := range set {
		for left != 0 {
			b := bits.TrailingZeros64(left)
			left &^= 1 << b
			if s.defines(definers[w*64+b], name) {
				return true
			}
		}
	}
	return false
}

// defines reports whether command i may define name.
func (s *Script) defines(i int, name string) bool {
	d := &s.Commands[i]
	switch d.Kind {
	case KindSet, KindSetShell:
		return d.Var == name
	case KindSQL:
		// The result's column names are not known before the query runs:
		// any word of the query could name one (an alias, a column, a
		// MySQL-style expression name), in any case the engine folds it
		// to; a "*" could name anything.
		rest, ok := strings.CutPrefix(name, d.SQL.Prefix)
		return ok && rest != "" && (d.SQL.star || d.SQL.names[strings.ToLower(rest)])
	}
	return false
}
