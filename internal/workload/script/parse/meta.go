package parse

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// maxWords is the most words a meta-command takes after its name: pgbench's
// MAX_ARGS less the command itself.
const maxWords = 255

// metaKinds are the meta-commands by name; names match case-insensitively.
// gset and aset are not commands of their own: they end the SQL command
// before them.
var metaKinds = map[string]Kind{
	"set":           KindSet,
	"sleep":         KindSleep,
	"setshell":      KindSetShell,
	"shell":         KindShell,
	"if":            KindIf,
	"elif":          KindElif,
	"else":          KindElse,
	"endif":         KindEndIf,
	"startpipeline": KindStartPipeline,
	"syncpipeline":  KindSyncPipeline,
	"endpipeline":   KindEndPipeline,
}

const knownMeta = `\set, \sleep, \setshell, \shell, \gset, \aset, \if, \elif, \else, \endif, \startpipeline, \syncpipeline, \endpipeline`

type word struct {
	s   string
	off int // where it starts in the source
}

// isMetaSpace is white space between the words of a meta-command ("\n"
// ends the command).
func isMetaSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' }

// continuation returns the length of a backslash-newline at s[i:] (a
// Windows "\\\r\n" too, which pgbench does not take), or 0.
func continuation(s string, i int) int {
	if i < len(s) && s[i] == '\\' {
		if i+1 < len(s) && s[i+1] == '\n' {
			return 2
		}
		if i+2 < len(s) && s[i+1] == '\r' && s[i+2] == '\n' {
			return 3
		}
	}
	return 0
}

// word reads the next word of the meta-command at p.lex.pos; at the end of
// the command it consumes the newline and reports false.
func (p *parser) word() (word, bool) {
	s := p.src
	i := p.lex.pos
	for i < len(s) {
		if n := continuation(s, i); n > 0 {
			i += n
		} else if isMetaSpace(s[i]) {
			i++
		} else {
			break
		}
	}
	if i >= len(s) || s[i] == '\n' {
		if i < len(s) {
			i++
		}
		p.lex.pos = i
		return word{}, false
	}
	j := i
	for j < len(s) && s[j] != '\n' && !isMetaSpace(s[j]) && continuation(s, j) == 0 {
		j++
	}
	p.lex.pos = j
	return word{s: s[i:j], off: i}, true
}

// restOfLine returns the source from p.lex.pos to the end of the command,
// continuations blanked, and consumes it with its newline.
func (p *parser) restOfLine() (string, int) {
	s := p.src
	start := p.lex.pos
	var b strings.Builder
	i := start
	for i < len(s) && s[i] != '\n' {
		if n := continuation(s, i); n > 0 {
			b.WriteString(strings.Repeat(" ", n))
			i += n
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	p.lex.pos = i
	if i < len(s) {
		p.lex.pos = i + 1
	}
	return b.String(), start
}

// commandText is a meta-command's source from its backslash to where the
// parser stands, without the trailing newline.
func (p *parser) commandText(start int) string {
	return strings.TrimRight(p.src[start:p.lex.pos], "\r\n")
}

// meta parses the meta-command whose backslash is at start.
func (p *parser) meta(start int) error {
	name, ok := p.word()
	if !ok {
		return nil // a backslash alone on its line: nothing, as in pgbench
	}
	lname := strings.ToLower(name.s)
	if lname == "gset" || lname == "aset" {
		return p.capture(start, lname)
	}
	kind, ok := metaKinds[lname]
	if !ok {
		p.restOfLine()
		return p.errorf(start, "invalid command in command %q: the meta-commands are %s", name.s, knownMeta)
	}
	c := Command{Kind: kind, Pos: p.lines.pos(start)}
	switch kind {
	case KindSet, KindIf, KindElif:
		if err := p.expression(&c, start, name.s); err != nil {
			return err
		}
	default:
		if err := p.wordsCommand(&c, start, name.s); err != nil {
			return err
		}
	}
	c.Text = p.commandText(start)
	p.cmds = append(p.cmds, c)
	return nil
}

// expression parses \set VAR EXPR, \if EXPR and \elif EXPR.
func (p *parser) expression(c *Command, start int, cmd string) error {
	if c.Kind == KindSet {
		v, ok := p.word()
		if !ok {
			return p.errorf(start, "missing argument in command %q: write \\set NAME EXPRESSION", cmd)
		}
		if !ValidVarName(v.s) {
			p.restOfLine()
			return p.errorf(v.off, "invalid variable name %q in command %q: a name is letters, digits and _, not starting with a digit", v.s, cmd)
		}
		c.Var = v.s
	}
	src, off := p.restOfLine()
	c.ExprSrc, c.ExprPos = src, p.lines.pos(off)
	if strings.TrimSpace(src) == "" {
		return p.errorf(off+len(src)-len(strings.TrimLeft(src, " \t\r\f\v")), "syntax error in command %q: the expression is missing", cmd)
	}
	if p.opts.ParseExpr == nil {
		return nil
	}
	v, err := p.opts.ParseExpr(src)
	if err != nil {
		at := off + len(src) - len(strings.TrimLeft(src, " \t\r\f\v"))
		var o offsetter
		if errors.As(err, &o) {
			at = off + min(max(o.Offset(), 0), len(src))
		}
		e := p.errorf(at, "%v in command %q", err, cmd)
		e.Err = err
		return e
	}
	c.Expr = v
	return nil
}

// wordsCommand parses the meta-commands made of words.
func (p *parser) wordsCommand(c *Command, start int, cmd string) error {
	var words []word
	for {
		w, ok := p.word()
		if !ok {
			break
		}
		if len(words) == maxWords {
			p.restOfLine()
			return p.errorf(w.off, "too many arguments in command %q (at most %d)", cmd, maxWords)
		}
		words = append(words, w)
	}
	switch c.Kind {
	case KindSleep:
		return p.sleep(c, start, cmd, words)
	case KindSetShell:
		if len(words) < 2 {
			return p.errorf(start, "missing argument in command %q: write \\setshell NAME COMMAND [ARGUMENT...]", cmd)
		}
		if !ValidVarName(words[0].s) {
			return p.errorf(words[0].off, "invalid variable name %q in command %q: a name is letters, digits and _, not starting with a digit", words[0].s, cmd)
		}
		c.Var = words[0].s
		c.Words = shellWords(words[1:])
	case KindShell:
		if len(words) < 1 {
			return p.errorf(start, "missing command in command %q: write \\shell COMMAND [ARGUMENT...]", cmd)
		}
		c.Words = shellWords(words)
	default: // \else, \endif and the pipeline commands take nothing
		if len(words) > 0 {
			return p.errorf(words[0].off, "unexpected argument in command %q: \\%s takes no argument", cmd, c.Kind)
		}
	}
	return nil
}

// shellWords reads \shell arguments as pgbench's runShellCommand does: a
// word starting with one colon is a variable, with two a literal colon.
func shellWords(ws []word) []Word {
	out := make([]Word, len(ws))
	for i, w := range ws {
		switch {
		case strings.HasPrefix(w.s, "::"):
			out[i] = Word{Lit: w.s[1:]}
		case strings.HasPrefix(w.s, ":"):
			out[i] = Word{Var: w.s[1:]}
		default:
			out[i] = Word{Lit: w.s}
		}
	}
	return out
}

// sleep parses \sleep N [us|ms|s], where N is an integer or :VAR and the
// unit may stick to the number ("10ms").
func (p *parser) sleep(c *Command, start int, cmd string, words []word) error {
	if len(words) < 1 {
		return p.errorf(start, "missing argument in command %q: write \\sleep N [us|ms|s]", cmd)
	}
	if len(words) > 2 {
		return p.errorf(words[2].off, "too many arguments in command %q: write \\sleep N [us|ms|s]", cmd)
	}
	arg := words[0]
	unit := word{}
	if len(words) == 2 {
		unit = words[1]
	}
	if strings.HasPrefix(arg.s, ":") {
		if !ValidVarName(arg.s[1:]) {
			return p.errorf(arg.off, "invalid variable name %q in command %q: a name is letters, digits and _, not starting with a digit", arg.s[1:], cmd)
		}
		c.Sleep.Var = arg.s[1:]
	} else {
		i := 0
		if i < len(arg.s) && (arg.s[i] == '+' || arg.s[i] == '-') {
			i++
		}
		j := i
		for j < len(arg.s) && isDigit(arg.s[j]) {
			j++
		}
		if j == i || j < len(arg.s) && len(words) == 2 {
			return p.errorf(arg.off, "invalid sleep time, must be an integer (%s) in command %q", arg.s, cmd)
		}
		n, err := strconv.ParseInt(arg.s[:j], 10, 64)
		if err != nil || n > 1<<31-1 || n < -(1<<31) {
			return p.errorf(arg.off, "invalid sleep time, must be an integer (%s) in command %q: it is out of range", arg.s, cmd)
		}
		c.Sleep.N = n
		if j < len(arg.s) {
			unit = word{s: arg.s[j:], off: arg.off + j}
		}
	}
	switch strings.ToLower(unit.s) {
	case "", "s":
		c.Sleep.Unit = time.Second
	case "ms":
		c.Sleep.Unit = time.Millisecond
	case "us":
		c.Sleep.Unit = time.Microsecond
	default:
		return p.errorf(unit.off, "unrecognized time unit, must be us, ms or s (%s) in command %q", unit.s, cmd)
	}
	return nil
}

// capture attaches \gset or \aset to the SQL command before it.
func (p *parser) capture(start int, cmd string) error {
	var words []word
	for {
		w, ok := p.word()
		if !ok {
			break
		}
		words = append(words, w)
	}
	if len(words) > 1 {
		return p.errorf(words[1].off, "too many arguments in command %q: write \\%s [PREFIX]", cmd, cmd)
	}
	n := len(p.cmds)
	if n == 0 || p.cmds[n-1].Kind != KindSQL || p.cmds[n-1].SQL.Capture != CaptureNone {
		what := "at the start of the script"
		if n > 0 {
			what = fmt.Sprintf("after %q", p.cmds[n-1].Text)
			if p.cmds[n-1].Kind == KindSQL {
				what += ", which has its \\gset or \\aset already"
			}
		}
		return p.errorf(start, "\\%s must follow an SQL command, not stand %s: put it after the query whose row it stores", cmd, what)
	}
	sql := p.cmds[n-1].SQL
	sql.Capture = CaptureGset
	if cmd == "aset" {
		sql.Capture = CaptureAset
	}
	if len(words) == 1 {
		sql.Prefix = words[0].s
	}
	p.capturePos[n-1] = p.lines.pos(start)
	return nil
}
