package script

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload/script/expr"
	"github.com/dbgauge/dbgauge/internal/workload/script/parse"
)

// Protocol is how SQL reaches the engine, pgbench's -M.
type Protocol int

// The protocols: simple (variables' text pasted into the SQL), extended
// (placeholders, arguments bound each time), prepared (placeholders, each
// statement prepared once per session).
const (
	Simple Protocol = iota
	Extended
	Prepared
)

var protocolNames = [...]string{Simple: "simple", Extended: "extended", Prepared: "prepared"}

func (p Protocol) String() string { return protocolNames[p] }

// ParseProtocol reads pgbench's -M value.
func ParseProtocol(s string) (Protocol, error) {
	for i, n := range protocolNames {
		if s == n {
			return Protocol(i), nil
		}
	}
	return 0, fmt.Errorf("invalid query mode %q: use simple, extended or prepared", s)
}

// Define is one -D NAME=VALUE.
type Define struct{ Name, Value string }

// ParseDefine reads "NAME=VALUE" as pgbench's -D does: split at the first
// "=", the name a valid variable name.
func ParseDefine(s string) (Define, error) {
	name, value, ok := strings.Cut(s, "=")
	if !ok {
		return Define{}, fmt.Errorf("invalid variable definition: %q (write -D NAME=VALUE)", s)
	}
	if !expr.ValidName(name) {
		return Define{}, fmt.Errorf("invalid variable name: %q (letters, digits and _, not starting with a digit)", name)
	}
	return Define{Name: name, Value: value}, nil
}

// Options are a script run's settings, fixed for the whole run.
type Options struct {
	Protocol Protocol
	// MaxTries is pgbench's --max-tries: how often a transaction that
	// failed with a retryable error (see Retryable) is tried in all; 0 and
	// 1 mean once, no retry (pgbench's 0, no limit but the run's time, is
	// the caller's to turn into a number).
	MaxTries int
	// LatencyLimit, when above zero, also ends the retries of a
	// transaction that has taken longer than it since Run began, as
	// pgbench's --latency-limit does (pgbench counts from the scheduled
	// start under --rate; a caller with a schedule passes what is left).
	LatencyLimit time.Duration
	// Defines are the -D variables, in order; a later one of the same name
	// wins. They override the automatic variables.
	Defines []Define
	// AllowShell lets \shell and \setshell run; without it a script using
	// them is refused when the program is built.
	AllowShell bool
	// ShellOutput receives what \shell's commands write to their standard
	// output, as pgbench's own standard output does; nil discards it.
	ShellOutput io.Writer
	// Scale is :scale.
	Scale int64
	// RandomSeed is pgbench's --random-seed as a number: :random_seed and
	// the seed of every generator (expr.SeedClients).
	RandomSeed uint64
	// Isolation is the level a script's BEGIN or START TRANSACTION without
	// one of its own starts (see docs/pgbench-scripts.md §7). The zero
	// value is dbgauge's default, repeatable read; pgbench's BEGIN on
	// PostgreSQL gets the server's default, read committed.
	Isolation dbms.Isolation
	// Debug receives debug()'s lines; nil discards them.
	Debug io.Writer
}

// Source is one script of a run: the script as given, with its weight, and
// the per-engine variants found beside its file, by engine name.
type Source struct {
	Script   *parse.Script
	Variants map[string]*parse.Script
}

// parseOptions are the parser's options: pgbench's expression language.
var parseOptions = parse.Options{ParseExpr: func(src string) (any, error) { return expr.Parse(src) }}

// ParseOptions is the parse.Options scripts of this runtime are read with.
func ParseOptions() parse.Options { return parseOptions }

// LoadFile reads the script of spec, "FILE[@WEIGHT]", and its per-engine
// variants: a file beside it named with an engine's name before the
// extension, NAME.ENGINE.EXT (bench.sql: bench.postgres.sql,
// bench.firebird.sql; without an extension NAME.ENGINE), ENGINE one of
// dbms.EngineNames. A variant replaces the script on that engine and keeps
// its weight.
func LoadFile(spec string) (Source, error) {
	s, err := parse.Load(spec, parseOptions)
	if err != nil {
		return Source{}, err
	}
	return WithVariants(s)
}

// WithVariants is the source of s, a script read from its file, with the
// per-engine variants found beside that file (see LoadFile); the file
// itself is not read again (it may be a pipe).
func WithVariants(s *parse.Script) (Source, error) {
	src := Source{Script: s}
	for engine, file := range variantFiles(s.Name) {
		b, err := os.ReadFile(file)
		if err != nil {
			return Source{}, fmt.Errorf("could not open file %q: %w", file, err)
		}
		v, err := parse.Parse(file, string(b), parseOptions)
		if err != nil {
			return Source{}, err
		}
		v.Weight = s.Weight
		if src.Variants == nil {
			src.Variants = map[string]*parse.Script{}
		}
		src.Variants[engine] = v
	}
	return src, nil
}

// variantFiles finds the variant files of the script file name, by engine.
func variantFiles(name string) map[string]string {
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	out := map[string]string{}
	for _, engine := range dbms.EngineNames() {
		f := stem + "." + engine + ext
		if st, err := os.Stat(f); err == nil && !st.IsDir() {
			out[engine] = f
		}
	}
	return out
}

// LoadBuiltin reads a built-in script, spec "NAME[@WEIGHT]" as pgbench's -b.
func LoadBuiltin(spec string) (Source, error) {
	name, weight, err := parse.ParseWeight(spec)
	if err != nil {
		return Source{}, err
	}
	s, err := parse.Builtin(name, parseOptions)
	if err != nil {
		return Source{}, err
	}
	s.Weight = weight
	return Source{Script: s}, nil
}

// Program is a run's scripts and options, checked and ready: built once,
// shared by every client (it is read-only after NewProgram, and what it
// compiles for an engine it keeps under a lock).
type Program struct {
	sources []Source
	opts    Options
	total   int64 // the sum of the weights
	defined []string
	cache   compileCache
}

// NewProgram checks the scripts of a run as pgbench does before it
// connects, plus what this runtime refuses: the number of scripts and their
// weights; under the extended and prepared protocols every variable defined
// (parse.Script.CheckExtended, the -D names counting); \shell and \setshell
// without Options.AllowShell; a pipeline under the simple protocol. A
// refusal names FILE:LINE:COL (a *parse.Error) or the option.
func NewProgram(sources []Source, opts Options) (*Program, error) {
	if opts.MaxTries < 0 {
		return nil, fmt.Errorf("invalid number of maximum tries: %d (--max-tries takes 1 or more)", opts.MaxTries)
	}
	if opts.MaxTries == 0 {
		opts.MaxTries = 1
	}
	main := make([]*parse.Script, len(sources))
	for i, s := range sources {
		main[i] = s.Script
	}
	if err := parse.CheckScripts(main); err != nil {
		return nil, err
	}
	p := &Program{sources: sources, opts: opts}
	for _, d := range opts.Defines {
		if !expr.ValidName(d.Name) {
			return nil, fmt.Errorf("invalid variable name in -D: %q (letters, digits and _, not starting with a digit)", d.Name)
		}
		p.defined = append(p.defined, d.Name)
	}
	for _, src := range sources {
		p.total += int64(src.Script.Weight)
		for _, s := range src.all() {
			if err := p.check(s); err != nil {
				return nil, err
			}
		}
	}
	return p, nil
}

// all is the script and its variants, in a fixed order.
func (s Source) all() []*parse.Script {
	out := []*parse.Script{s.Script}
	engines := make([]string, 0, len(s.Variants))
	for e := range s.Variants {
		engines = append(engines, e)
	}
	slices.Sort(engines)
	for _, e := range engines {
		out = append(out, s.Variants[e])
	}
	return out
}

func (p *Program) check(s *parse.Script) error {
	if p.opts.Protocol != Simple {
		if err := s.CheckExtended(p.defined); err != nil {
			return err
		}
	}
	for _, c := range s.Commands {
		switch c.Kind {
		case parse.KindShell, parse.KindSetShell:
			if !p.opts.AllowShell {
				return &parse.Error{File: s.Name, Pos: c.Pos, Msg: fmt.Sprintf("\\%s runs a shell command: allow it with --allow-shell, or remove it", c.Kind)}
			}
		case parse.KindStartPipeline:
			if p.opts.Protocol == Simple {
				return &parse.Error{File: s.Name, Pos: c.Pos, Msg: "\\startpipeline: cannot use pipeline mode with the simple query protocol: run with -M extended or -M prepared"}
			}
		}
	}
	return nil
}

// Sources are the program's scripts as given, in order: their names and
// weights name the transaction types of a run.
func (p *Program) Sources() []Source { return p.sources }

// Options are the program's options (MaxTries at least 1).
func (p *Program) Options() Options { return p.opts }

// Scripts are the scripts run on the engine named engine (its variants
// where there are some), in the order they were given: Result.Script and
// a Recorder's script index point into it.
func (p *Program) Scripts(engine string) []*parse.Script {
	out := make([]*parse.Script, len(p.sources))
	for i, src := range p.sources {
		out[i] = src.For(engine)
	}
	return out
}

// For is the script to run on the engine named engine.
func (s Source) For(engine string) *parse.Script {
	if v, ok := s.Variants[engine]; ok {
		return v
	}
	return s.Script
}
