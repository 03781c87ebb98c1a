package script

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload/script/expr"
	"github.com/dbgauge/dbgauge/internal/workload/script/parse"
)

// sql runs the statements of SQL command pc one at a time (a `\;`
// compound too, except under the simple protocol on an engine that takes
// it whole), storing a \gset's or \aset's rows.
func (c *Client) sql(ctx context.Context, s *compiled, pc int) error {
	cmd := &s.script.Commands[pc]
	if s.whole[pc] && c.compound != nil && c.p.opts.Protocol == Simple && !c.inPipe {
		return c.wholeSQL(ctx, cmd)
	}
	stmts := s.sql[pc]
	capture := cmd.SQL.Capture
	for i := range stmts {
		st := &stmts[i]
		last := i == len(stmts)-1
		want := capture == parse.CaptureAset || capture == parse.CaptureGset && last
		if st.ctl.kind != ctlNone && !c.inPipe {
			if err := c.control(ctx, st, pc); err != nil {
				return err
			}
			if want && capture == parse.CaptureGset {
				return scriptError("expected one row, got 0")
			}
			continue
		}
		text, args := c.render(st)
		if c.inPipe {
			c.pending = append(c.pending, dbms.PipelineStatement{SQL: text, Args: append([]any(nil), args...), Prepared: c.p.opts.Protocol == Prepared})
			continue
		}
		var res *dbms.TextResult
		if want {
			res = &c.res
		}
		err := c.tq.QueryText(ctx, text, args, c.p.opts.Protocol == Prepared, res)
		clear(c.args)
		if err != nil {
			return err
		}
		if st.textBegin {
			c.textTx, c.txStart = true, pc
		}
		if want {
			if err := c.store(capture, cmd.SQL.Prefix); err != nil {
				return err
			}
		}
	}
	return nil
}

// wholeSQL sends a compound in one call, as pgbench does under the simple
// protocol: \aset stores every result that has rows, \gset the last
// statement's, which must have one row.
func (c *Client) wholeSQL(ctx context.Context, cmd *parse.Command) error {
	capture := cmd.SQL.Capture
	var last *dbms.TextResult
	err := c.compound.QueryCompound(ctx, cmd.SQL.Whole.Simple(c.vars.Text), func(res *dbms.TextResult) error {
		last = res
		if capture != parse.CaptureAset || len(res.Columns) == 0 {
			return nil
		}
		c.res = *res
		return c.store(capture, cmd.SQL.Prefix)
	})
	if err != nil || capture != parse.CaptureGset {
		return err
	}
	if last == nil || len(last.Columns) == 0 {
		return scriptError("expected one row, got 0")
	}
	c.res = *last
	return c.store(capture, cmd.SQL.Prefix)
}

// render is the statement's text and arguments under the run's protocol.
// Simple: each variable's text pasted in, an undefined one left as :name.
// Extended and prepared: the engine's placeholders, each bound to its
// variable, a computed integer as a number and anything else as text, an
// undefined variable as NULL, as pgbench binds them.
func (c *Client) render(st *statement) (string, []any) {
	if c.p.opts.Protocol == Simple {
		return st.text.Simple(c.vars.Text), nil
	}
	c.args = c.args[:0]
	for _, v := range c.bound(st) {
		switch {
		case v == nil:
			c.args = append(c.args, nil)
		default:
			if i, isInt := v.IntArg(); isInt {
				c.args = append(c.args, i)
			} else {
				c.args = append(c.args, v.Text())
			}
		}
	}
	return st.bound, c.args
}

// bound are the variables st binds, nil for one not defined.
func (c *Client) bound(st *statement) []*expr.Variable { return c.resolve(st.id, st.args) }

// set gives the variable a \set command (its id compiled.setID) sets its
// value, as Variables.SetValue does.
func (c *Client) set(id int, name string, val expr.Value) error {
	if v := c.resolve(id, []string{name})[0]; v != nil {
		v.SetValue(val)
		return nil
	}
	return c.vars.SetValue(name, val) // a new variable: resolved again next time
}

// resolve is the client's variables of names (nil for one not defined),
// kept under id (statement.id, compiled.setID): looked up by name only
// when variables were made or dropped since the last time
// (expr.Variables.Generation), which after a client's first transactions
// is never.
func (c *Client) resolve(id int, names []string) []*expr.Variable {
	if id >= len(c.refs) {
		c.refs = append(c.refs, make([][]*expr.Variable, id+1-len(c.refs))...)
		c.refsGen = append(c.refsGen, make([]uint64, id+1-len(c.refsGen))...)
	}
	gen := c.vars.Generation() + 1 // 0: never resolved
	if c.refsGen[id] != gen {
		refs := c.refs[id][:0]
		for _, name := range names {
			v, _ := c.vars.Lookup(name)
			refs = append(refs, v)
		}
		c.refs[id], c.refsGen[id] = refs, gen
	}
	return c.refs[id]
}

// store puts the captured result into variables, as pgbench's \gset and
// \aset do: \gset wants exactly one row; \aset takes the last row and
// assigns nothing for none. NULL becomes the empty text, as libpq gives it.
// A column named in capitals only (Firebird's way with unquoted names)
// sets the lower-case name too, so `SELECT abalance ... \gset` defines
// :abalance on every engine.
func (c *Client) store(capture parse.Capture, prefix string) error {
	rows := c.res.Rows
	if capture == parse.CaptureGset && len(rows) != 1 {
		return scriptError("expected one row, got %d", len(rows))
	}
	if len(rows) == 0 {
		return nil
	}
	row := rows[len(rows)-1]
	cmd := "gset"
	if capture == parse.CaptureAset {
		cmd = "aset"
	}
	for i, col := range c.res.Columns {
		if err := c.vars.SetText(prefix+col, row[i]); err != nil {
			return scriptError("%s: error storing into variable %s: %v", cmd, prefix+col, err)
		}
		if lower := strings.ToLower(col); lower != col && strings.ToUpper(col) == col {
			if err := c.vars.SetText(prefix+lower, row[i]); err != nil {
				return scriptError("%s: error storing into variable %s: %v", cmd, prefix+lower, err)
			}
		}
	}
	return nil
}

// control runs a transaction statement through the engine's Transactor.
// As PostgreSQL answers them with a warning only, BEGIN inside a
// transaction and COMMIT or ROLLBACK outside one change nothing. A
// transaction the script began with SQL as written (textBegin) and the
// session does not know of is ended by SQL too, COMMIT or ROLLBACK.
func (c *Client) control(ctx context.Context, st *statement, pc int) error {
	ctl := st.ctl
	open := c.tq.InTransaction()
	if ctl.kind != ctlBegin && !open && c.textTx {
		// As standard SQL: MariaDB has no END.
		c.textTx = false
		end := "COMMIT"
		if ctl.kind == ctlRollback {
			end = "ROLLBACK"
		}
		return c.tq.QueryText(ctx, end, nil, false, nil)
	}
	if ctl.kind != ctlBegin {
		c.textTx = false
	}
	switch ctl.kind {
	case ctlBegin:
		if open {
			return nil
		}
		iso := c.p.opts.Isolation
		if ctl.hasIso {
			iso = ctl.iso
		}
		c.txStart = pc
		return c.tx.Begin(ctx, iso)
	case ctlCommit:
		if !open {
			return nil
		}
		return c.tx.Commit(ctx)
	default:
		return c.tx.Rollback(ctx)
	}
}

// sleep waits as \sleep says, or until ctx ends.
func (c *Client) sleep(ctx context.Context, s parse.Sleep) error {
	n := s.N
	if s.Var != "" {
		text, ok := c.vars.Text(s.Var)
		if !ok {
			return scriptError("sleep: undefined variable \"%s\"", s.Var)
		}
		v, valid := atoi(text)
		if !valid {
			return scriptError("sleep: invalid sleep time \"%s\" for variable \"%s\"", text, s.Var)
		}
		n = v
	}
	d := time.Duration(n) * s.Unit
	if d <= 0 {
		return nil
	}
	if c.timer == nil {
		c.timer = time.NewTimer(d)
	} else {
		c.timer.Reset(d)
	}
	select {
	case <-c.timer.C:
		return nil
	case <-ctx.Done():
		c.timer.Stop()
		return ctx.Err()
	}
}

// atoi reads a sleep time as pgbench does (C's atoi: leading white space, a
// sign, digits, anything after ignored); valid is false for text that
// neither starts with a digit nor reads as a non-zero number.
func atoi(s string) (int64, bool) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] >= '\t' && s[i] <= '\r') {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var n int64
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		n = n*10 + int64(s[i]-'0')
	}
	if neg {
		n = -n
	}
	return n, n != 0 || s != "" && s[0] >= '0' && s[0] <= '9'
}

// shell runs \shell or \setshell (only built when Options.AllowShell): the
// words, variables replaced by their text, joined by spaces and run by
// /bin/sh, as pgbench runs them with system() and popen().
func (c *Client) shell(ctx context.Context, cmd *parse.Command) error {
	words := make([]string, len(cmd.Words))
	for i, w := range cmd.Words {
		if w.Var == "" {
			words[i] = w.Lit
			continue
		}
		text, ok := c.vars.Text(w.Var)
		if !ok {
			return scriptError("%s: undefined variable \"%s\"", cmd.Kind, w.Var)
		}
		words[i] = text
	}
	line := strings.Join(words, " ")
	sh := exec.CommandContext(ctx, "/bin/sh", "-c", line)
	if cmd.Kind == parse.KindShell {
		sh.Stdout = c.p.opts.ShellOutput
		if err := sh.Run(); err != nil {
			return scriptError("shell: could not launch shell command %q: %v", line, err)
		}
		return nil
	}
	out, err := sh.Output()
	if err != nil {
		return scriptError("setshell: could not launch shell command %q: %v", line, err)
	}
	text := strings.TrimRight(string(out), " \t\n\r\f\v")
	text = strings.TrimLeft(text, " \t\n\r\f\v")
	v, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return scriptError("setshell: shell command must return an integer (not \"%s\")", string(out))
	}
	if err := c.vars.SetValue(cmd.Var, expr.Int(v)); err != nil {
		return scriptError("setshell: %v", err)
	}
	return nil
}
