package script

import (
	"fmt"
	"sync"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload/script/parse"
)

// compiled is a script made ready for one engine: each SQL statement
// rendered once with the engine's placeholders, transaction statements
// recognised.
type compiled struct {
	script *parse.Script
	// sql holds, by command index, the statements of SQL commands (nil for
	// meta-commands).
	sql [][]statement
	// whole marks, by command index, a `\;` compound of no transaction
	// statement, which an engine that takes compounds gets in one call
	// under the simple protocol.
	whole []bool
	// setID numbers, by command index, the \set commands in the id space of
	// the statements (statement.id): a client keeps the variable each one
	// sets under it.
	setID []int
}

// statement is one statement of an SQL command.
type statement struct {
	text parse.Text // for the simple protocol
	// bound is the text with the engine's placeholders and args the
	// variables bound to them, in order (extended and prepared protocols).
	bound string
	args  []string
	// ctl is the transaction statement it is, if it is one; textBegin is
	// set for a BEGIN or START of a form the engine gets as written
	// (control.go).
	ctl       control
	textBegin bool
	// id numbers the statements of one engine's compiled scripts from 0:
	// a client keeps what it resolved for each under it (Client.refs).
	id int
}

// compileCache keeps each engine's compiled scripts, so that every session
// of a run shares them.
type compileCache struct {
	mu sync.Mutex
	by map[string][]*compiled
}

// compile makes the program's scripts ready for engine, checking what the
// engine must be able to do for them: run any SQL (dbms.TextQuerier),
// transactions (dbms.Transactor), pipelines (dbms.Pipeliner). A refusal
// names FILE:LINE:COL.
func (p *Program) compile(e dbms.Engine) ([]*compiled, error) {
	name := e.Name()
	p.cache.mu.Lock()
	defer p.cache.mu.Unlock()
	if c, ok := p.cache.by[name]; ok {
		return c, nil
	}
	tq, ok := e.(dbms.TextQuerier)
	if !ok {
		return nil, fmt.Errorf("engine %s cannot run a script's SQL: its adapter has no dbms.TextQuerier", name)
	}
	_, canTx := e.(dbms.Transactor)
	_, canPipe := e.(dbms.Pipeliner)
	var out []*compiled
	ids := 0
	for _, s := range p.Scripts(name) {
		c := &compiled{script: s, sql: make([][]statement, len(s.Commands)), whole: make([]bool, len(s.Commands)), setID: make([]int, len(s.Commands))}
		for i, cmd := range s.Commands {
			switch cmd.Kind {
			case parse.KindSet:
				c.setID[i], ids = ids, ids+1
			case parse.KindStartPipeline:
				if !canPipe {
					return nil, &parse.Error{File: s.Name, Pos: cmd.Pos, Msg: fmt.Sprintf("\\startpipeline: %s has no pipeline mode: remove the pipeline meta-commands, or give this engine a variant of the script", name)}
				}
			case parse.KindSQL:
				for _, t := range cmd.SQL.Statements {
					st := statement{text: t, ctl: controlOf(t)}
					st.textBegin = st.ctl.kind == ctlNone && beginsTransaction(t)
					st.bound, st.args = t.Bind(tq.Placeholder)
					st.id, ids = ids, ids+1
					if st.ctl.kind != ctlNone && !canTx {
						return nil, &parse.Error{File: s.Name, Pos: cmd.Pos, Msg: fmt.Sprintf("%s cannot run transactions: its adapter has no dbms.Transactor", name)}
					}
					c.sql[i] = append(c.sql[i], st)
				}
				c.whole[i] = len(c.sql[i]) > 1
				for _, st := range c.sql[i] {
					c.whole[i] = c.whole[i] && st.ctl.kind == ctlNone && !st.textBegin
				}
			}
		}
		out = append(out, c)
	}
	if p.cache.by == nil {
		p.cache.by = map[string][]*compiled{}
	}
	p.cache.by[name] = out
	return out, nil
}

// CheckEngine says whether the program can run on e, before anything runs:
// a pipeline on an engine without one, for instance, is refused naming the
// script's FILE:LINE:COL. Client.Setup checks the same.
func (p *Program) CheckEngine(e dbms.Engine) error {
	_, err := p.compile(e)
	return err
}
