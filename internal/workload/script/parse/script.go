package parse

import "time"

// Script is one parsed and checked script file.
type Script struct {
	// Name is the file name (or a built-in script's description), as
	// errors and reports name the script.
	Name string
	// Weight is the script's share in the weighted choice (pgbench -f
	// FILE@WEIGHT); Parse sets 1, Load the weight of its spec.
	Weight int
	// Commands in script order. A runtime executes them from index 0 and
	// follows the jumps documented on Command.
	Commands []Command
}

// Kind is what a command is.
type Kind int

// The kinds of commands: SQL, and one per meta-command.
const (
	KindSQL Kind = iota
	KindSet
	KindSleep
	KindSetShell
	KindShell
	KindIf
	KindElif
	KindElse
	KindEndIf
	KindStartPipeline
	KindSyncPipeline
	KindEndPipeline
)

var kindNames = [...]string{
	KindSQL:           "SQL",
	KindSet:           "set",
	KindSleep:         "sleep",
	KindSetShell:      "setshell",
	KindShell:         "shell",
	KindIf:            "if",
	KindElif:          "elif",
	KindElse:          "else",
	KindEndIf:         "endif",
	KindStartPipeline: "startpipeline",
	KindSyncPipeline:  "syncpipeline",
	KindEndPipeline:   "endpipeline",
}

// String is the meta-command's name without its backslash ("set"), or "SQL".
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Command is one command of a script. Which fields are set depends on Kind.
//
// Control flow, for a runtime that keeps a command index pc (Script.Branch
// and Script.Next do exactly this):
//   - KindIf at pc: evaluate Expr; if true go to pc+1. If false go to Next:
//     when Next is a KindElif, evaluate that one the same way (true: its
//     index+1, false: its Next); when it is KindElse or KindEndIf, go to its
//     index+1.
//   - KindElif or KindElse reached by running off the end of a taken branch:
//     go to End+1 (the command after the \endif).
//   - KindEndIf: go to pc+1.
//   - every other command: go to pc+1; the script ends at len(Commands).
//
// Truth follows pgbench: NULL and zero are false, other numbers true.
type Command struct {
	Kind Kind
	// Pos is where the command starts: the backslash of a meta-command,
	// the first character of an SQL command.
	Pos Pos
	// Text is the command as pgbench shows it in messages and in the
	// per-command report: an SQL command's first line (at most 127 bytes),
	// a meta-command's source from its backslash to its end.
	Text string

	// SQL is the statement(s) of a KindSQL command.
	SQL *SQL

	// Var is the variable \set and \setshell assign.
	Var string

	// Expr is what Options.ParseExpr returned for the expression of \set,
	// \if and \elif; ExprSrc is that expression's source (continuation
	// backslashes blanked), starting at ExprPos.
	Expr    any
	ExprSrc string
	ExprPos Pos

	// Sleep is the duration of \sleep.
	Sleep Sleep

	// Words are the command words of \shell and \setshell (the program and
	// its arguments), each a literal or a variable.
	Words []Word

	// Next, for \if and \elif: the index of the next \elif, \else or \endif
	// of the same chain, where control goes when the condition is false.
	Next int
	// End, for \if, \elif and \else: the index of the chain's \endif.
	End int
}

// Sleep is the argument of \sleep: a count of Units, given literally or by
// a variable whose value is an integer.
type Sleep struct {
	Var  string        // the variable holding the count, when given as :name
	N    int64         // the count, when Var is ""
	Unit time.Duration // time.Microsecond, time.Millisecond or time.Second
}

// Word is one word of \shell or \setshell: a literal, or a variable whose
// value replaces it (":name"); "::x" is the literal ":x", as in pgbench.
type Word struct {
	Lit string
	Var string
}

// Capture says what becomes of an SQL command's result rows.
type Capture int

// The captures: none, \gset (the last statement must return exactly one
// row; each column becomes a variable) and \aset (every statement of the
// compound; an empty result assigns nothing, several rows keep the last).
const (
	CaptureNone Capture = iota
	CaptureGset
	CaptureAset
)

// SQL is an SQL command: one statement, or several joined by `\;` into a
// compound that pgbench sends at once.
type SQL struct {
	// Whole is the command as pgbench keeps it: leading white space and
	// "--" comments dropped, `\;` turned into ";", the terminating ";"
	// kept. It is what the simple protocol sends to PostgreSQL.
	Whole Text
	// Statements are the statements of the compound, each without its
	// separator and surrounding white space; empty ones (";;") are left
	// out. One statement is the usual case. Engines that take one
	// statement a call, and \aset, need the boundaries.
	Statements []Text
	// Capture and Prefix are the \gset or \aset that ended the command and
	// its variable-name prefix ("" for none).
	Capture Capture
	Prefix  string

	// names are the words the statements could name result columns with,
	// lower-cased (identifiers, quoted identifiers, string literals); star
	// is set when a select list or RETURNING holds a "*". The check of
	// undefined variables uses them to know what \gset and \aset may set.
	names map[string]bool
	star  bool
}
