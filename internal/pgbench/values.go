package pgbench

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/dbgauge/dbgauge/internal/workload/script/expr"
	"github.com/dbgauge/dbgauge/internal/workload/script/parse"
)

// cmdState is what the option loop keeps beside Options until the whole
// command line is read.
type cmdState struct {
	initMode, benchSet, initSet bool
	host, port, user            string
	steps                       string
	stepsGiven                  bool
}

// setter takes one option's value (name is how the user wrote the
// option, for messages) as pgbench's option loop does.
type setter func(o *Options, st *cmdState, name, v string) error

// valueOf has a setter for every long name of options.
var valueOf = map[string]setter{
	"builtin":            setBuiltin,
	"select-only":        addBuiltin("select-only"),
	"skip-some-updates":  addBuiltin("simple-update"),
	"file":               setFile,
	"client":             intInto(func(o *Options) *int { return &o.Clients }, "-c/--client", 1),
	"jobs":               intInto(func(o *Options) *int { return &o.Threads }, "-j/--jobs", 1),
	"transactions":       intInto(func(o *Options) *int { return &o.Transactions }, "-t/--transactions", 1),
	"time":               secondsInto(func(o *Options) *time.Duration { return &o.Duration }, "-T/--time"),
	"progress":           secondsInto(func(o *Options) *time.Duration { return &o.Progress }, "-P/--progress"),
	"aggregate-interval": secondsInto(func(o *Options) *time.Duration { return &o.AggregateInterval }, "--aggregate-interval"),
	"scale":              setScale,
	"fillfactor":         setFillFactor,
	"partitions":         intInto(func(o *Options) *int { return &o.Partitions }, "--partitions", 0),
	"partition-method":   setPartitionMethod,
	"connect":            flag(func(o *Options) *bool { return &o.Connect }),
	"debug":              flag(func(o *Options) *bool { return &o.Debug }),
	"define":             setDefine,
	"host":               func(_ *Options, st *cmdState, _, v string) error { st.host = v; return nil },
	"port":               func(_ *Options, st *cmdState, _, v string) error { st.port = v; return nil },
	"username":           func(_ *Options, st *cmdState, _, v string) error { st.user = v; return nil },
	"initialize":         func(_ *Options, st *cmdState, _, _ string) error { st.initMode = true; return nil },
	"init-steps":         setInitSteps,
	"log":                flag(func(o *Options) *bool { return &o.Log }),
	"latency-limit":      setLatencyLimit,
	"protocol":           setProtocol,
	"no-vacuum":          flag(func(o *Options) *bool { return &o.NoVacuum }),
	"quiet":              flag(func(o *Options) *bool { return &o.Quiet }),
	"report-per-command": flag(func(o *Options) *bool { return &o.PerCommand }),
	"rate":               setRate,
	"vacuum-all":         flag(func(o *Options) *bool { return &o.VacuumAll }),
	"unlogged-tables":    flag(func(o *Options) *bool { return &o.UnloggedTables }),
	"tablespace":         func(o *Options, _ *cmdState, _, v string) error { o.Tablespace = v; return nil },
	"index-tablespace":   func(o *Options, _ *cmdState, _, v string) error { o.IndexTablespace = v; return nil },
	"sampling-rate":      setSamplingRate,
	"progress-timestamp": flag(func(o *Options) *bool { return &o.ProgressTimestamp }),
	"log-prefix":         func(o *Options, _ *cmdState, _, v string) error { o.LogPrefix = v; return nil },
	"foreign-keys":       flag(func(o *Options) *bool { return &o.ForeignKeys }),
	"random-seed":        setRandomSeed,
	"show-script":        setShowScript,
	"failures-detailed":  flag(func(o *Options) *bool { return &o.FailuresDetailed }),
	"max-tries":          setMaxTries,
	"verbose-errors":     flag(func(o *Options) *bool { return &o.VerboseErrors }),
}

func flag(field func(*Options) *bool) setter {
	return func(o *Options, _ *cmdState, _, _ string) error { *field(o) = true; return nil }
}

// intInto reads a whole number from lo to the largest int32 into a field.
func intInto(field func(*Options) *int, optName string, lo int) setter {
	return func(o *Options, _ *cmdState, _, v string) (err error) {
		*field(o), err = parseIntOption(optName, v, lo, math.MaxInt32)
		return err
	}
}

// secondsInto reads a whole number of seconds, at least 1, into a field.
func secondsInto(field func(*Options) *time.Duration, optName string) setter {
	return func(o *Options, _ *cmdState, _, v string) error {
		n, err := parseIntOption(optName, v, 1, math.MaxInt32)
		*field(o) = time.Duration(n) * time.Second
		return err
	}
}

func setBuiltin(o *Options, _ *cmdState, name, v string) error {
	if v == "list" {
		o.Mode = ListBuiltins
		return nil
	}
	script, w, err := parse.ParseWeight(v)
	if err != nil {
		return fmt.Errorf("%s %s: %w", name, v, err)
	}
	full, err := builtinName(script)
	if err != nil {
		return fmt.Errorf("%s %s: %w (-b list shows them)", name, v, err)
	}
	o.Specs = append(o.Specs, ScriptSpec{Builtin: true, Name: full, Weight: w})
	return nil
}

// builtinName is the full name of the built-in script a prefix names.
func builtinName(prefix string) (string, error) {
	src, _, err := parse.BuiltinSource(prefix)
	if err != nil {
		return "", err
	}
	head, _, _ := strings.Cut(src, ":")
	return strings.TrimPrefix(head, "-- "), nil
}

func addBuiltin(full string) setter {
	return func(o *Options, _ *cmdState, _, _ string) error {
		o.Specs = append(o.Specs, ScriptSpec{Builtin: true, Name: full, Weight: 1})
		return nil
	}
}

func setFile(o *Options, _ *cmdState, name, v string) error {
	file, w, err := parse.ParseWeight(v)
	if err != nil {
		return fmt.Errorf("%s %s: %w", name, v, err)
	}
	if file == "-" {
		return fmt.Errorf("%s -: dbgauge pgbench reads scripts from files, not standard input; save the script and give its file", name)
	}
	o.Specs = append(o.Specs, ScriptSpec{Name: file, Weight: w})
	return nil
}

func setScale(o *Options, _ *cmdState, _, v string) (err error) {
	o.ScaleGiven = true
	o.Scale, err = parseIntOption("-s/--scale", v, 1, math.MaxInt32)
	return err
}

func setFillFactor(o *Options, _ *cmdState, _, v string) (err error) {
	o.FillFactor, err = parseIntOption("-F/--fillfactor", v, 10, 100)
	return err
}

func setPartitionMethod(o *Options, _ *cmdState, _, v string) error {
	switch m := strings.ToLower(v); m {
	case "range", "hash":
		o.PartitionMethod = m
		return nil
	}
	return fmt.Errorf("--partition-method %q: give range or hash", v)
}

func setDefine(o *Options, _ *cmdState, name, v string) error {
	vname, val, ok := strings.Cut(v, "=")
	if !ok || vname == "" || val == "" {
		return fmt.Errorf("invalid variable definition %s %q: write -D NAME=VALUE", name, v)
	}
	if !expr.ValidName(vname) {
		return fmt.Errorf("%s %s: invalid variable name %q: use letters, digits and _, not starting with a digit", name, v, vname)
	}
	o.Defines = append(o.Defines, Define{Name: vname, Value: val})
	return nil
}

func setInitSteps(_ *Options, st *cmdState, name, v string) error {
	if v == "" {
		return fmt.Errorf("%s: no initialization steps specified: give some of %q", name, allInitSteps)
	}
	for i := 0; i < len(v); i++ {
		if !strings.ContainsRune(allInitSteps+" ", rune(v[i])) {
			return fmt.Errorf("%s %s: unrecognized initialization step %q: the steps are the letters %q", name, v, v[i], allInitSteps)
		}
	}
	st.steps, st.stepsGiven = v, true
	return nil
}

func setLatencyLimit(o *Options, _ *cmdState, name, v string) error {
	ms := atof(v)
	if math.IsNaN(ms) {
		return notANumber(name, v)
	}
	if !(ms > 0) {
		return fmt.Errorf("invalid latency limit %s %q: give milliseconds above 0, e.g. -L 50", name, v)
	}
	o.LatencyLimit = time.Duration(int64(ms*1000)) * time.Microsecond
	return nil
}

func setProtocol(o *Options, _ *cmdState, name, v string) error {
	switch Protocol(v) {
	case Simple, Extended, Prepared:
		o.Protocol = Protocol(v)
		return nil
	}
	return fmt.Errorf("invalid query mode %s %q: give simple, extended or prepared", name, v)
}

func setRate(o *Options, _ *cmdState, name, v string) error {
	r := atof(v)
	if math.IsNaN(r) {
		return notANumber(name, v)
	}
	if !(r > 0) {
		return fmt.Errorf("invalid rate limit %s %q: give transactions per second above 0, e.g. -R 100", name, v)
	}
	o.Rate = r
	return nil
}

func setSamplingRate(o *Options, _ *cmdState, _, v string) error {
	r := atof(v)
	if r <= 0 || r > 1 {
		return fmt.Errorf("invalid sampling rate --sampling-rate %q: give a fraction above 0 and at most 1, e.g. 0.01", v)
	}
	o.SamplingRate = r
	return nil
}

func setRandomSeed(o *Options, _ *cmdState, _, v string) error {
	if err := o.setSeed(v); err != nil {
		return fmt.Errorf("--random-seed: %w", err)
	}
	return nil
}

func setShowScript(o *Options, _ *cmdState, _, v string) error {
	full, err := builtinName(v)
	if err != nil {
		return fmt.Errorf("--show-script %s: %w", v, err)
	}
	o.Mode, o.ShowScript = ShowScript, full
	return nil
}

func setMaxTries(o *Options, _ *cmdState, _, v string) error {
	n := atoi(v)
	if n < 0 {
		return fmt.Errorf("invalid number of maximum tries --max-tries %q: give 0 (no limit) or more", v)
	}
	o.MaxTries = uint32(n)
	return nil
}
