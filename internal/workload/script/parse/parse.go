package parse

import (
	"fmt"
	"strings"
)

// Options configure Parse.
type Options struct {
	// ParseExpr parses the expression of a \set, \if or \elif; Parse keeps
	// what it returns in Command.Expr. src is the expression's source to
	// the end of the command, continuation backslashes and their newlines
	// replaced by spaces so that byte offsets in src match the file's. An
	// error may have a method Offset() int, the 0-based byte offset in src
	// where the expression went wrong, which Parse turns into the error's
	// line and column. With ParseExpr nil, expressions are kept as source
	// only (Expr nil) and not checked.
	ParseExpr func(src string) (any, error)
}

// offsetter is an expression error that knows where in the source it is.
type offsetter interface{ Offset() int }

type parser struct {
	name  string
	src   string
	lines lines
	opts  Options
	lex   sqlLexer
	cmds  []Command
	// capturePos remembers where each \gset or \aset stood, by the index
	// of the SQL command it ended, for the pipeline check's message.
	capturePos map[int]Pos
}

// Parse parses one script. name is how errors name it (the file name, as
// pgbench's do). The error, if any, is an *Error.
func Parse(name, src string, opts Options) (*Script, error) {
	p := &parser{name: name, src: src, lines: newLines(src), opts: opts, capturePos: map[int]Pos{}}
	p.lex.src = src
	if err := p.commands(); err != nil {
		return nil, err
	}
	if len(p.cmds) == 0 {
		return nil, &Error{File: name, Pos: Pos{Line: 1, Col: 1}, Msg: fmt.Sprintf("empty command list for script %q: write at least one SQL command or meta-command", name)}
	}
	s := &Script{Name: name, Weight: 1, Commands: p.cmds}
	if err := p.conditionals(s); err != nil {
		return nil, err
	}
	if err := p.pipelines(s); err != nil {
		return nil, err
	}
	return s, nil
}

// commands runs psql's lexer over the script, as pgbench's ParseScript does:
// the SQL collected before each stop is a command (unless it is empty), and
// a backslash stop is followed by a meta-command.
func (p *parser) commands() error {
	var buf sqlBuf
	for {
		buf.reset()
		end := p.lex.scan(&buf)
		if end == endEOF && p.lex.state != stInitial {
			return p.errorf(p.lex.stateStart, "%s: close it, or end the command with ';' before it", p.lex.unterminated())
		}
		if buf.text.Len() > 0 {
			p.cmds = append(p.cmds, p.sqlCommand(&buf))
		}
		if end == endBackslash {
			if err := p.meta(p.lex.pos - 1); err != nil {
				return err
			}
		}
		if end == endEOF {
			return nil
		}
	}
}

// sqlSpace is SQL's white space (psql's {space}).
const sqlSpace = " \t\n\r\f"

// sqlCommand makes a command of the SQL collected in b.
func (p *parser) sqlCommand(b *sqlBuf) Command {
	text := b.text.String()
	at := func(off int) Pos { return p.lines.pos(b.srcOffset(off)) }
	sql := &SQL{Whole: cutVars(text, at), names: b.names, star: b.star}
	bounds := append(append([]int{-1}, b.semis...), len(text))
	for i := 0; i+1 < len(bounds); i++ {
		from, to := bounds[i]+1, bounds[i+1]
		if i+2 == len(bounds) {
			// The last statement: drop the ";" that ended the command.
			to = from + len(strings.TrimRight(text[from:to], sqlSpace))
			if to > from && text[to-1] == ';' {
				to--
			}
		}
		seg := text[from:to]
		lead := len(seg) - len(strings.TrimLeft(seg, sqlSpace))
		seg = strings.Trim(seg, sqlSpace)
		if seg == "" {
			continue
		}
		base := from + lead
		sql.Statements = append(sql.Statements, cutVars(seg, func(off int) Pos { return at(base + off) }))
	}
	first := text
	if i := strings.IndexAny(first, "\n\r"); i >= 0 {
		first = first[:i]
	}
	if len(first) > 127 {
		first = first[:127]
	}
	return Command{Kind: KindSQL, Pos: at(0), Text: first, SQL: sql}
}

func (p *parser) errorf(off int, format string, args ...any) *Error {
	return &Error{File: p.name, Pos: p.lines.pos(off), Msg: fmt.Sprintf(format, args...)}
}
