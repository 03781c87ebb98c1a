package expr

import (
	"errors"
	"fmt"
	"io"
)

// Context is what an expression sees of the client evaluating it. The
// runtime keeps one per client and updates Script and Command as it goes.
type Context struct {
	// Vars are the client's variables. The hash and permute functions
	// without a seed read :default_seed from here, as pgbench does.
	Vars VarLookup
	// Rand is the client's generator for the random functions (pgbench's
	// per-client state; see SeedClients).
	Rand *PRNG
	// Debug receives debug()'s lines (pgbench writes them to stderr); nil
	// discards them.
	Debug io.Writer
	// Script and Command place a debug() line as pgbench does: the script's
	// index from 0 and the command's number from 1.
	Script, Command int
}

// maxArgs is how many arguments pgbench evaluates for one function call.
const maxArgs = 16

// ErrNoRand is returned when a random function runs without a generator.
var ErrNoRand = errors.New("random function evaluated without a generator")

// Eval evaluates the expression for one client. An error is what pgbench
// reports before aborting the client (e.g. "bigint add out of range",
// `undefined variable "x"`).
func (e *Expr) Eval(ctx *Context) (Value, error) {
	return eval(ctx, e.root)
}

func eval(ctx *Context, n *node) (Value, error) {
	switch n.kind {
	case nConst:
		return n.val, nil
	case nVar:
		if ctx.Vars == nil {
			return Value{}, fmt.Errorf("undefined variable \"%s\"", n.name)
		}
		v, ok := ctx.Vars.Lookup(n.name)
		if !ok {
			return Value{}, fmt.Errorf("undefined variable \"%s\"", n.name)
		}
		return v.Value(n.name)
	}
	switch n.f {
	case fAnd, fOr:
		return evalLogic(ctx, n)
	case fCase:
		return evalCase(ctx, n.args)
	}
	if len(n.args) > maxArgs {
		// pgbench evaluates the first 16 before it notices.
		for _, a := range n.args[:maxArgs] {
			if _, err := eval(ctx, a); err != nil {
				return Value{}, err
			}
		}
		return Value{}, fmt.Errorf("too many function arguments, maximum is %d", maxArgs)
	}
	var buf [maxArgs]Value
	args := buf[:len(n.args)]
	hasNull := false
	for i, a := range n.args {
		v, err := eval(ctx, a)
		if err != nil {
			return Value{}, err
		}
		args[i] = v
		hasNull = hasNull || v.kind == KindNull
	}
	if hasNull && n.f != fIs && n.f != fDebug {
		return Null(), nil
	}
	return apply(ctx, n.f, args)
}

// evalLogic is AND and OR as pgbench evaluates them: a NULL left operand
// gives NULL without evaluating the right one; otherwise both must be
// booleans, and the right one is evaluated only when the left does not
// decide.
func evalLogic(ctx *Context, n *node) (Value, error) {
	l, err := eval(ctx, n.args[0])
	if err != nil || l.kind == KindNull {
		return l, err
	}
	lb, err := l.AsBool()
	if err != nil {
		return Value{}, err
	}
	if lb == (n.f == fOr) {
		return Bool(lb), nil
	}
	r, err := eval(ctx, n.args[1])
	if err != nil || r.kind == KindNull {
		return r, err
	}
	rb, err := r.AsBool()
	if err != nil {
		return Value{}, err
	}
	return Bool(rb), nil
}

// evalCase evaluates conditions in order and the branch of the first true
// one, else the last argument (NULL when the CASE had no ELSE).
func evalCase(ctx *Context, args []*node) (Value, error) {
	for len(args) > 1 {
		c, err := eval(ctx, args[0])
		if err != nil {
			return Value{}, err
		}
		if c.Truth() {
			return eval(ctx, args[1])
		}
		args = args[2:]
	}
	return eval(ctx, args[0])
}

// writeDebug prints debug()'s line.
func writeDebug(ctx *Context, v Value) {
	if ctx.Debug == nil {
		return
	}
	fmt.Fprintf(ctx.Debug, "debug(script=%d,command=%d): %s\n", ctx.Script, ctx.Command, v.debugText())
}
