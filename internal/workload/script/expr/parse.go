package expr

// SyntaxError is an expression pgbench would refuse before running.
type SyntaxError struct {
	// Pos is the 0-based byte offset in the parsed source where pgbench
	// points its caret: the last byte of the token found wrong (of the
	// newline, or the source's last byte, when the expression ended early).
	Pos int
	// Msg is pgbench's wording, e.g. "syntax error" or
	// "unexpected function name (foo)".
	Msg string
}

// Error is Msg alone: the caller places it (file:line:col) with Offset.
func (e *SyntaxError) Error() string { return e.Msg }

// Offset is Pos, so a caller can read it through interface{ Offset() int }
// without naming this package's type.
func (e *SyntaxError) Offset() int { return e.Pos }

// Expr is a parsed expression. It is immutable: one Expr serves every
// client at once.
type Expr struct {
	root *node
	src  string
}

// String is the source the expression was parsed from, up to the newline
// that ended it.
func (e *Expr) String() string { return e.src }

type nodeKind uint8

const (
	nConst nodeKind = iota
	nVar
	nCall
)

type node struct {
	kind nodeKind
	val  Value  // nConst
	name string // nVar
	f    fn     // nCall
	args []*node
}

func constant(v Value) *node                      { return &node{kind: nConst, val: v} }
func variable(name string) *node                  { return &node{kind: nVar, name: name} }
func call(f fn, args ...*node) *node              { return &node{kind: nCall, f: f, args: args} }
func (p *parser) errAt(t token, msg string) error { return &SyntaxError{Pos: t.last(), Msg: msg} }

// Parse parses one expression of pgbench's \set, \if or \elif. src is the
// text after the command's words (after "\set name "). A backslash before a
// newline continues it on the next line; it ends at its end or at the first
// other newline, and nothing after that newline is read. Pass the line's
// newline along when it has one, so that an error at the end of the line is
// where pgbench points (at the newline rather than at the last byte).
func Parse(src string) (*Expr, error) {
	p := &parser{lex: lexer{src: src}}
	root, end, err := p.parse()
	if err != nil {
		return nil, p.lastLexError(err)
	}
	return &Expr{root: root, src: src[:end]}, nil
}

// parse parses the whole expression; end is where it stops in the source.
func (p *parser) parse() (root *node, end int, err error) {
	if root, err = p.expr(precLowest); err != nil {
		return nil, 0, err
	}
	t, err := p.peek()
	if err != nil {
		return nil, 0, err
	}
	if t.kind != tEOF {
		return nil, 0, p.errAt(t, "syntax error")
	}
	if t.end > t.start { // ended by a newline
		return root, t.start, nil
	}
	return root, len(p.lex.src), nil
}

// lastLexError reads the rest of the expression after an error, as pgbench
// does to print the whole line; a character or constant it cannot scan
// there is reported instead, the last such one winning, as pgbench's
// nested error reports do.
func (p *parser) lastLexError(err error) error {
	if p.peeked && p.ahead.kind == tEOF {
		return err
	}
	for {
		t, lexErr := p.lex.next()
		if lexErr != nil {
			err = lexErr
			continue
		}
		if t.kind == tEOF {
			return err
		}
	}
}

// Precedence levels, lowest first, as pgbench's grammar declares them.
const (
	precLowest = iota
	precOr     // left
	precAnd    // left
	precNot    // right
	precIs     // nonassoc: IS, ISNULL, NOTNULL
	precCmp    // nonassoc: = <> != < <= > >=
	precBit    // left: | # & << >> and prefix ~
	precAdd    // left
	precMul    // left
	precUnary  // right: prefix + and -
)

// infix is a binary or postfix operator's level; 0 for other tokens.
func infix(k tokKind) int {
	switch k {
	case tOr:
		return precOr
	case tAnd:
		return precAnd
	case tIs, tIsNull, tNotNull:
		return precIs
	case tEq, tNe, tLt, tLe, tGt, tGe:
		return precCmp
	case tBitOr, tBitXor, tBitAnd, tShl, tShr:
		return precBit
	case tPlus, tMinus:
		return precAdd
	case tStar, tSlash, tPercent:
		return precMul
	}
	return 0
}

type parser struct {
	lex    lexer
	ahead  token
	peeked bool
}

// peek scans the next token once: like pgbench's parser, it reads a token
// only when it must, so errors come in the order pgbench finds them.
func (p *parser) peek() (token, error) {
	if !p.peeked {
		t, err := p.lex.next()
		if err != nil {
			return token{}, err
		}
		p.ahead, p.peeked = t, true
	}
	return p.ahead, nil
}

func (p *parser) take() (token, error) {
	t, err := p.peek()
	p.peeked = false
	return t, err
}

func (p *parser) expect(k tokKind) (token, error) {
	t, err := p.take()
	if err != nil {
		return t, err
	}
	if t.kind != k {
		return t, p.errAt(t, "syntax error")
	}
	return t, nil
}

// expr parses an operand and every operator that binds tighter than ctx,
// the level of the operator whose right operand this is. It resolves each
// operator as the LALR parser's precedence table does: an operator of a
// higher level is taken, a lower one ends the operand, one of the same
// level ends a left-associative operand and is an error for the
// non-associative comparisons.
func (p *parser) expr(ctx int) (*node, error) {
	left, err := p.operand()
	if err != nil {
		return nil, err
	}
	for {
		t, err := p.peek()
		if err != nil {
			return nil, err
		}
		lvl := infix(t.kind)
		if lvl == 0 || lvl < ctx || (lvl == ctx && ctx != precCmp && ctx != precIs) {
			return left, nil
		}
		if lvl == ctx {
			return nil, p.errAt(t, "syntax error")
		}
		p.take()
		if lvl == precIs {
			if left, err = p.isTail(t, left); err != nil {
				return nil, err
			}
			continue
		}
		right, err := p.expr(lvl)
		if err != nil {
			return nil, err
		}
		left = binary(t.kind, left, right)
	}
}

// binary builds an operator's call; > and >= are < and <= with the operands
// swapped (so the right one is evaluated first, as in pgbench).
func binary(k tokKind, l, r *node) *node {
	switch k {
	case tOr:
		return call(fOr, l, r)
	case tAnd:
		return call(fAnd, l, r)
	case tEq:
		return call(fEq, l, r)
	case tNe:
		return call(fNe, l, r)
	case tLt:
		return call(fLt, l, r)
	case tLe:
		return call(fLe, l, r)
	case tGt:
		return call(fLt, r, l)
	case tGe:
		return call(fLe, r, l)
	case tBitOr:
		return call(fBitOr, l, r)
	case tBitXor:
		return call(fBitXor, l, r)
	case tBitAnd:
		return call(fBitAnd, l, r)
	case tShl:
		return call(fShl, l, r)
	case tShr:
		return call(fShr, l, r)
	case tPlus:
		return call(fAdd, l, r)
	case tMinus:
		return call(fSub, l, r)
	case tStar:
		return call(fMul, l, r)
	case tSlash:
		return call(fDiv, l, r)
	}
	return call(fMod, l, r)
}

// isTail parses what follows IS (NULL, TRUE, FALSE, NOT NULL, NOT TRUE,
// NOT FALSE), or applies ISNULL and NOTNULL.
func (p *parser) isTail(op token, left *node) (*node, error) {
	isNull := func(x *node) *node { return call(fIs, x, constant(Null())) }
	switch op.kind {
	case tIsNull:
		return isNull(left), nil
	case tNotNull:
		return call(fNot, isNull(left)), nil
	}
	t, err := p.take()
	if err != nil {
		return nil, err
	}
	negate := t.kind == tNot
	if negate {
		if t, err = p.take(); err != nil {
			return nil, err
		}
	}
	var n *node
	switch t.kind {
	case tNull:
		n = isNull(left)
	case tBool:
		n = call(fIs, left, constant(Bool(t.b)))
	default:
		return nil, p.errAt(t, "syntax error")
	}
	if negate {
		n = call(fNot, n)
	}
	return n, nil
}

// operand parses a constant, a variable, a call, a CASE, a parenthesised
// expression, or a prefix operator with its operand.
func (p *parser) operand() (*node, error) {
	t, err := p.take()
	if err != nil {
		return nil, err
	}
	switch t.kind {
	case tLParen:
		e, err := p.expr(precLowest)
		if err != nil {
			return nil, err
		}
		_, err = p.expect(tRParen)
		return e, err
	case tPlus:
		return p.expr(precUnary)
	case tMinus:
		// -9223372036854775808 is the one constant whose digits alone do
		// not fit.
		if n, err := p.peek(); err != nil {
			return nil, err
		} else if n.kind == tMaxIntPlusOne {
			p.take()
			return constant(Int(-1 << 63)), nil
		}
		e, err := p.expr(precUnary)
		if err != nil {
			return nil, err
		}
		return call(fSub, constant(Int(0)), e), nil
	case tBitNot:
		e, err := p.expr(precBit)
		if err != nil {
			return nil, err
		}
		return call(fBitXor, constant(Int(-1)), e), nil
	case tNot:
		e, err := p.expr(precNot)
		if err != nil {
			return nil, err
		}
		return call(fNot, e), nil
	case tNull:
		return constant(Null()), nil
	case tBool:
		return constant(Bool(t.b)), nil
	case tInt:
		return constant(Int(t.i)), nil
	case tDouble:
		return constant(Double(t.f)), nil
	case tVar:
		return variable(t.text), nil
	case tFunc:
		return p.call(t)
	case tCase:
		return p.caseExpr()
	}
	return nil, p.errAt(t, "syntax error")
}

// call parses a function's arguments and checks their number.
func (p *parser) call(name token) (*node, error) {
	info, ok := findFunc(name.text)
	if !ok {
		// Found before the next token is read, as pgbench finds it.
		return nil, p.errAt(name, "unexpected function name ("+name.text+")")
	}
	if _, err := p.expect(tLParen); err != nil {
		return nil, err
	}
	args, closing, err := p.args()
	if err != nil {
		return nil, err
	}
	n := len(args)
	bad := func(msg string) error { return p.errAt(closing, msg+" ("+info.name+")") }
	switch info.nargs {
	case argsAtLeastOne:
		if n == 0 {
			return nil, bad("at least one argument expected")
		}
	case argsHash:
		if n < 1 || n > 2 {
			return nil, bad("unexpected number of arguments")
		}
		if n == 1 {
			args = append(args, variable("default_seed"))
		}
	case argsPermute:
		if n < 2 || n > 3 {
			return nil, bad("unexpected number of arguments")
		}
		if n == 2 {
			args = append(args, variable("default_seed"))
		}
	default:
		if n != info.nargs {
			return nil, bad("unexpected number of arguments")
		}
	}
	return call(info.f, args...), nil
}

// args parses an argument list after "(" up to its ")", which it returns.
// pgbench's grammar lets the list start with a comma: f(,1) is f(1).
func (p *parser) args() ([]*node, token, error) {
	t, err := p.peek()
	if err != nil {
		return nil, t, err
	}
	if t.kind == tRParen {
		p.take()
		return nil, t, nil
	}
	if t.kind == tComma {
		p.take()
	}
	var args []*node
	for {
		a, err := p.expr(precLowest)
		if err != nil {
			return nil, t, err
		}
		args = append(args, a)
		if t, err = p.take(); err != nil {
			return nil, t, err
		}
		switch t.kind {
		case tComma:
			continue
		case tRParen:
			return args, t, nil
		}
		return nil, t, p.errAt(t, "syntax error")
	}
}

// caseExpr parses CASE WHEN c THEN v [WHEN ...] [ELSE e] END into one call
// with arguments c1, v1, c2, v2, ..., e (NULL without ELSE).
func (p *parser) caseExpr() (*node, error) {
	if _, err := p.expect(tWhen); err != nil {
		return nil, err
	}
	var args []*node
	for {
		c, err := p.expr(precLowest)
		if err != nil {
			return nil, err
		}
		if _, err := p.expect(tThen); err != nil {
			return nil, err
		}
		v, err := p.expr(precLowest)
		if err != nil {
			return nil, err
		}
		args = append(args, c, v)
		t, err := p.take()
		if err != nil {
			return nil, err
		}
		switch t.kind {
		case tWhen:
			continue
		case tEnd:
			return call(fCase, append(args, constant(Null()))...), nil
		case tElse:
			e, err := p.expr(precLowest)
			if err != nil {
				return nil, err
			}
			if _, err := p.expect(tEnd); err != nil {
				return nil, err
			}
			return call(fCase, append(args, e)...), nil
		}
		return nil, p.errAt(t, "syntax error")
	}
}
