package pgbench

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload/script/expr"
	"github.com/dbgauge/dbgauge/internal/workload/script/parse"
)

// Parse reads a pgbench command line (args without the program name) as
// pgbench 15 does and checks it with pgbench's rules, reading and parsing
// the scripts it names, before anything connects. getenv (nil: none) gives
// $PGBENCH_RANDOM_SEED. Every error is one line naming the option and a
// fix, classified as bad input (exit 2).
func Parse(args []string, getenv func(string) string) (*Options, error) {
	o, err := parseArgs(args, getenv)
	if err != nil {
		return nil, dbms.Wrap(dbms.BadInput, err)
	}
	return o, nil
}

func parseArgs(args []string, getenv func(string) string) (*Options, error) {
	o := &Options{Clients: 1, Threads: 1, Protocol: Simple, Scale: 1, MaxTries: 1, FillFactor: 100}
	if len(args) > 0 {
		switch args[0] {
		case "--help", "-?":
			o.Mode = Help
			return o, nil
		case "--version", "-V":
			o.Mode = Version
			return o, nil
		}
	}
	if getenv != nil {
		if s := getenv("PGBENCH_RANDOM_SEED"); s != "" {
			if err := o.setSeed(s); err != nil {
				return nil, fmt.Errorf("$PGBENCH_RANDOM_SEED: %w", err)
			}
		}
	}
	flags, operands, err := getopt(args)
	if err != nil {
		return nil, err
	}
	var (
		initMode, benchSet, initSet bool
		host, port, user            string
		steps                       string
		stepsGiven                  bool
	)
	for _, f := range flags {
		bench, init, stop, err := o.apply(f, &host, &port, &user, &steps, &stepsGiven)
		if err != nil {
			return nil, err
		}
		if stop {
			return o, nil
		}
		benchSet = benchSet || bench
		initSet = initSet || init
		if f.opt.short == 'i' {
			initMode = true
		}
	}
	if initMode {
		o.Mode = Initialize
	}
	if len(o.Specs) == 0 && !initMode {
		o.Specs = append(o.Specs, ScriptSpec{Builtin: true, Name: "tpcb-like", Weight: 1})
		benchSet = true
	}
	for _, s := range o.Specs {
		o.TotalWeight += int64(s.Weight)
	}
	if o.TotalWeight == 0 && !initMode {
		return nil, fmt.Errorf("total script weight must not be zero: give one -f or -b script a weight above 0 (FILE@1)")
	}
	o.PerScript = len(o.Specs) > 1
	if o.Threads > o.Clients {
		o.Threads = o.Clients // pgbench needs no more threads than clients
	}
	if len(operands) > 1 {
		return nil, fmt.Errorf("too many command-line arguments (first is %q): give the database URL once, as the last argument", operands[1])
	}
	db := ""
	if len(operands) == 1 {
		db = operands[0]
	}
	if o.DB, err = databaseURL(db, host, port, user); err != nil {
		return nil, err
	}
	if initMode {
		if benchSet {
			return nil, fmt.Errorf("some of the specified options cannot be used in initialization (-i) mode: leave out the benchmarking options, or -i")
		}
		if o.Partitions == 0 && o.PartitionMethod != "" {
			return nil, fmt.Errorf("--partition-method requires greater than zero --partitions: add --partitions=N")
		}
		if o.Partitions > 0 && o.PartitionMethod == "" {
			o.PartitionMethod = "range"
		}
		if !stepsGiven {
			steps = DefaultInitSteps
		}
		if o.NoVacuum {
			steps = strings.ReplaceAll(steps, "v", " ")
		}
		if o.ForeignKeys && !strings.Contains(steps, "f") {
			steps += "f"
		}
		o.InitSteps = steps
		return o, o.checkSupported()
	}
	if initSet {
		return nil, fmt.Errorf("some of the specified options cannot be used in benchmarking mode: -F, -I, -q, --foreign-keys, --unlogged-tables, --partitions, --partition-method and the tablespaces go with -i")
	}
	if err := o.checkRun(); err != nil {
		return nil, err
	}
	if err := o.loadScripts(); err != nil {
		return nil, err
	}
	return o, o.checkSupported()
}

// apply takes one option, as pgbench's option loop does: it says whether
// the option is a benchmarking or an initialisation one, and stop when the
// option ends the command line's processing (-b list, --show-script).
func (o *Options) apply(f flagged, host, port, user, steps *string, stepsGiven *bool) (bench, init, stop bool, err error) {
	v := f.val
	switch f.opt.long {
	case "builtin":
		if v == "list" {
			o.Mode = ListBuiltins
			return false, false, true, nil
		}
		name, w, err := parse.ParseWeight(v)
		if err != nil {
			return false, false, false, fmt.Errorf("%s %s: %w", f.name, v, err)
		}
		src, _, err := parse.BuiltinSource(name)
		if err != nil {
			return false, false, false, fmt.Errorf("%s %s: %w (-b list shows them)", f.name, v, err)
		}
		full := strings.TrimPrefix(strings.SplitN(src, ":", 2)[0], "-- ")
		o.Specs = append(o.Specs, ScriptSpec{Builtin: true, Name: full, Weight: w})
		return true, false, false, nil
	case "select-only", "skip-some-updates":
		name := map[string]string{"select-only": "select-only", "skip-some-updates": "simple-update"}[f.opt.long]
		o.Specs = append(o.Specs, ScriptSpec{Builtin: true, Name: name, Weight: 1})
		return true, false, false, nil
	case "file":
		name, w, err := parse.ParseWeight(v)
		if err != nil {
			return false, false, false, fmt.Errorf("%s %s: %w", f.name, v, err)
		}
		o.Specs = append(o.Specs, ScriptSpec{Name: name, Weight: w})
		return true, false, false, nil
	case "client":
		o.Clients, err = parseIntOption("-c/--client", v, 1, math.MaxInt32)
		return true, false, false, err
	case "jobs":
		o.Threads, err = parseIntOption("-j/--jobs", v, 1, math.MaxInt32)
		return true, false, false, err
	case "transactions":
		o.Transactions, err = parseIntOption("-t/--transactions", v, 1, math.MaxInt32)
		return true, false, false, err
	case "time":
		n, err := parseIntOption("-T/--time", v, 1, math.MaxInt32)
		o.Duration = time.Duration(n) * time.Second
		return true, false, false, err
	case "progress":
		n, err := parseIntOption("-P/--progress", v, 1, math.MaxInt32)
		o.Progress = time.Duration(n) * time.Second
		return true, false, false, err
	case "aggregate-interval":
		n, err := parseIntOption("--aggregate-interval", v, 1, math.MaxInt32)
		o.AggregateInterval = time.Duration(n) * time.Second
		return true, false, false, err
	case "scale":
		o.ScaleGiven = true
		o.Scale, err = parseIntOption("-s/--scale", v, 1, math.MaxInt32)
		return false, false, false, err
	case "fillfactor":
		o.FillFactor, err = parseIntOption("-F/--fillfactor", v, 10, 100)
		return false, true, false, err
	case "partitions":
		o.Partitions, err = parseIntOption("--partitions", v, 0, math.MaxInt32)
		return false, true, false, err
	case "partition-method":
		switch strings.ToLower(v) {
		case "range", "hash":
			o.PartitionMethod = strings.ToLower(v)
		default:
			return false, false, false, fmt.Errorf("--partition-method %q: give range or hash", v)
		}
		return false, true, false, nil
	case "connect":
		o.Connect = true
		return true, false, false, nil
	case "debug":
		o.Debug = true
	case "define":
		name, val, ok := strings.Cut(v, "=")
		if !ok || name == "" || val == "" {
			return false, false, false, fmt.Errorf("invalid variable definition %s %q: write -D NAME=VALUE", f.name, v)
		}
		if !expr.ValidName(name) {
			return false, false, false, fmt.Errorf("%s %s: invalid variable name %q: use letters, digits and _, not starting with a digit", f.name, v, name)
		}
		o.Defines = append(o.Defines, Define{Name: name, Value: val})
		return true, false, false, nil
	case "host":
		*host = v
	case "port":
		*port = v
	case "username":
		*user = v
	case "initialize":
	case "init-steps":
		if v == "" {
			return false, false, false, fmt.Errorf("%s: no initialization steps specified: give some of %q", f.name, allInitSteps)
		}
		for i := 0; i < len(v); i++ {
			if !strings.ContainsRune(allInitSteps+" ", rune(v[i])) {
				return false, false, false, fmt.Errorf("%s %s: unrecognized initialization step %q: the steps are the letters %q", f.name, v, v[i], allInitSteps)
			}
		}
		*steps, *stepsGiven = v, true
		return false, true, false, nil
	case "log":
		o.Log = true
		return true, false, false, nil
	case "latency-limit":
		ms := atof(v)
		if math.IsNaN(ms) {
			return false, false, false, notANumber(f.name, v)
		}
		if !(ms > 0) {
			return false, false, false, fmt.Errorf("invalid latency limit %s %q: give milliseconds above 0, e.g. -L 50", f.name, v)
		}
		o.LatencyLimit = time.Duration(int64(ms*1000)) * time.Microsecond
		return true, false, false, nil
	case "protocol":
		switch Protocol(v) {
		case Simple, Extended, Prepared:
			o.Protocol = Protocol(v)
		default:
			return false, false, false, fmt.Errorf("invalid query mode %s %q: give simple, extended or prepared", f.name, v)
		}
		return true, false, false, nil
	case "no-vacuum":
		o.NoVacuum = true
	case "quiet":
		o.Quiet = true
		return false, true, false, nil
	case "report-per-command":
		o.PerCommand = true
		return true, false, false, nil
	case "rate":
		r := atof(v)
		if math.IsNaN(r) {
			return false, false, false, notANumber(f.name, v)
		}
		if !(r > 0) {
			return false, false, false, fmt.Errorf("invalid rate limit %s %q: give transactions per second above 0, e.g. -R 100", f.name, v)
		}
		o.Rate = r
		return true, false, false, nil
	case "vacuum-all":
		o.VacuumAll = true
		return true, false, false, nil
	case "unlogged-tables":
		o.UnloggedTables = true
		return false, true, false, nil
	case "tablespace":
		o.Tablespace = v
		return false, true, false, nil
	case "index-tablespace":
		o.IndexTablespace = v
		return false, true, false, nil
	case "sampling-rate":
		r := atof(v)
		if r <= 0 || r > 1 {
			return false, false, false, fmt.Errorf("invalid sampling rate --sampling-rate %q: give a fraction above 0 and at most 1, e.g. 0.01", v)
		}
		o.SamplingRate = r
		return true, false, false, nil
	case "progress-timestamp":
		o.ProgressTimestamp = true
		return true, false, false, nil
	case "log-prefix":
		o.LogPrefix = v
		return true, false, false, nil
	case "foreign-keys":
		o.ForeignKeys = true
		return false, true, false, nil
	case "random-seed":
		if err := o.setSeed(v); err != nil {
			return false, false, false, fmt.Errorf("--random-seed: %w", err)
		}
		return true, false, false, nil
	case "show-script":
		src, _, err := parse.BuiltinSource(v)
		if err != nil {
			return false, false, false, fmt.Errorf("--show-script %s: %w", v, err)
		}
		o.Mode, o.ShowScript = ShowScript, strings.TrimPrefix(strings.SplitN(src, ":", 2)[0], "-- ")
		return false, false, true, nil
	case "failures-detailed":
		o.FailuresDetailed = true
		return true, false, false, nil
	case "max-tries":
		n := atoi(v)
		if n < 0 {
			return false, false, false, fmt.Errorf("invalid number of maximum tries --max-tries %q: give 0 (no limit) or more", v)
		}
		o.MaxTries = uint32(n)
		return true, false, false, nil
	case "verbose-errors":
		o.VerboseErrors = true
		return true, false, false, nil
	}
	return false, false, false, nil
}

// notANumber refuses a NaN, which pgbench takes for -R and -L (atof reads
// "nan" and a NaN is not at most 0) and then computes with.
func notANumber(name, v string) error {
	return fmt.Errorf("%s %s: dbgauge pgbench takes a number here, and NaN is none; give one above 0", name, v)
}

// setSeed takes --random-seed's forms: "time", "rand", or an unsigned
// decimal number.
func (o *Options) setSeed(s string) error {
	o.SeedGiven, o.SeedSource = true, s
	switch s {
	case "time", "rand":
		return nil
	}
	seed, ok := parseSeed(s)
	if !ok {
		return fmt.Errorf("unrecognized random seed option %q: give an unsigned integer, \"time\" or \"rand\"", s)
	}
	o.Seed = seed
	return nil
}

// checkRun applies pgbench's rules for a benchmark run, in its order.
func (o *Options) checkRun() error {
	if o.Transactions > 0 && o.Duration > 0 {
		return fmt.Errorf("specify either a number of transactions (-t) or a duration (-T), not both: leave one out")
	}
	if o.Transactions == 0 && o.Duration == 0 {
		o.Transactions = 10
	}
	if o.SamplingRate > 0 && !o.Log {
		return fmt.Errorf("log sampling (--sampling-rate) is allowed only when logging transactions (-l): add -l or leave it out")
	}
	if o.SamplingRate > 0 && o.AggregateInterval > 0 {
		return fmt.Errorf("log sampling (--sampling-rate) and aggregation (--aggregate-interval) cannot be used at the same time: leave one out")
	}
	if o.AggregateInterval > 0 && !o.Log {
		return fmt.Errorf("log aggregation (--aggregate-interval) is allowed only when logging transactions (-l): add -l or leave it out")
	}
	if !o.Log && o.LogPrefix != "" {
		return fmt.Errorf("log file prefix (--log-prefix) is allowed only when logging transactions (-l): add -l or leave it out")
	}
	if o.Duration > 0 && o.AggregateInterval > o.Duration {
		return fmt.Errorf("--aggregate-interval %d must not be higher than the test duration -T %d: lower it", int(o.AggregateInterval.Seconds()), int(o.Duration.Seconds()))
	}
	if o.Duration > 0 && o.AggregateInterval > 0 && o.Duration%o.AggregateInterval != 0 {
		return fmt.Errorf("duration -T %d must be a multiple of --aggregate-interval %d: change one of them", int(o.Duration.Seconds()), int(o.AggregateInterval.Seconds()))
	}
	if o.ProgressTimestamp && o.Progress == 0 {
		return fmt.Errorf("--progress-timestamp is allowed only under --progress: add -P SECONDS")
	}
	if o.MaxTries == 0 && o.LatencyLimit == 0 && o.Duration == 0 {
		return fmt.Errorf("--max-tries 0 (an unlimited number of tries) can only be used with --latency-limit or a duration (-T): add one")
	}
	return nil
}

// loadScripts reads and parses the scripts in command-line order, as
// pgbench does before it connects.
func (o *Options) loadScripts() error {
	opts := parse.Options{ParseExpr: func(src string) (any, error) { return expr.Parse(src) }}
	for _, s := range o.Specs {
		var (
			sc  *parse.Script
			err error
		)
		if s.Builtin {
			sc, err = parse.Builtin(s.Name, opts)
		} else {
			sc, err = parse.Load(s.Name, opts)
		}
		if err != nil {
			return err
		}
		sc.Weight = s.Weight
		o.Scripts = append(o.Scripts, sc)
	}
	return parse.CheckScripts(o.Scripts)
}

// checkSupported refuses what pgbench takes and dbgauge pgbench does not
// do, each with one line saying so.
func (o *Options) checkSupported() error {
	switch {
	case o.Partitions > 0:
		return fmt.Errorf("--partitions: dbgauge pgbench does not partition pgbench_accounts; leave --partitions out")
	case o.Tablespace != "" || o.IndexTablespace != "":
		return fmt.Errorf("--tablespace/--index-tablespace: dbgauge pgbench creates the tables where the engine puts them by default; leave them out")
	case o.Log:
		return fmt.Errorf("-l/--log: dbgauge pgbench writes no transaction log; every residence time is in the run directory's histograms, leave -l out")
	}
	return nil
}

// databaseURL finds the engine URL: the operand when it is one (a scheme
// before ":"), else a PostgreSQL URL made of -h, -p, -U and the operand as
// the database name, as pgbench would connect with them.
func databaseURL(db, host, port, user string) (string, error) {
	if db != "" && strings.Contains(db, ":") && !strings.HasPrefix(db, "/") {
		if host != "" || port != "" || user != "" {
			return "", fmt.Errorf("-h, -p and -U go with a plain database name; the URL %s names its server itself, so leave them out", dbms.RedactPasswords(db))
		}
		u, err := dbms.ParseURL(db)
		if err != nil {
			return "", err
		}
		if _, err := dbms.Lookup(u); err != nil {
			return "", err
		}
		return db, nil
	}
	if db == "" && host == "" && port == "" && user == "" {
		return "", fmt.Errorf("no database: give the engine URL as the last argument, e.g. postgres://user@localhost:5432/db, mysql://..., sqlite:FILE, duckdb:FILE, firebird://...")
	}
	if db == "" {
		db = user
	}
	u := &url.URL{Scheme: "postgres", Path: "/" + db}
	if user != "" {
		u.User = url.User(user)
	}
	q := url.Values{}
	switch {
	case strings.HasPrefix(host, "/"):
		q.Set("host", host)
		if port != "" {
			q.Set("port", port)
		}
	case host != "":
		u.Host = host
		if port != "" {
			u.Host = host + ":" + port
		}
	case port != "":
		u.Host = "localhost:" + port
	}
	if port != "" {
		if _, err := strconv.Atoi(port); err != nil {
			return "", fmt.Errorf("-p %s: give the server's port number", port)
		}
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}
