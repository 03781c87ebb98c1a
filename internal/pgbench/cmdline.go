package pgbench

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

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
	var st cmdState
	for _, f := range flags {
		if err := valueOf[f.opt.long](o, &st, f.name, f.val); err != nil {
			return nil, err
		}
		if o.Mode == ListBuiltins || o.Mode == ShowScript {
			return o, nil // pgbench prints and exits here
		}
		st.benchSet = st.benchSet || f.opt.class == benchmarking
		st.initSet = st.initSet || f.opt.class == initialization
	}
	initMode, benchSet := st.initMode, st.benchSet
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
	if o.DB, err = databaseURL(db, st.host, st.port, st.user); err != nil {
		return nil, err
	}
	if initMode {
		if benchSet {
			return nil, fmt.Errorf("some of the specified options cannot be used in initialization (-i) mode: leave out the benchmarking options, or -i")
		}
		return o, o.finishInit(&st)
	}
	if st.initSet {
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

// finishInit applies pgbench's rules for -i: the partition options go
// together, and the steps are -I's (or the default) less v with -n, plus f
// with --foreign-keys.
func (o *Options) finishInit(st *cmdState) error {
	if o.Partitions == 0 && o.PartitionMethod != "" {
		return fmt.Errorf("--partition-method requires greater than zero --partitions: add --partitions=N")
	}
	if o.Partitions > 0 && o.PartitionMethod == "" {
		o.PartitionMethod = "range"
	}
	steps := st.steps
	if !st.stepsGiven {
		steps = DefaultInitSteps
	}
	if o.NoVacuum {
		steps = strings.ReplaceAll(steps, "v", " ")
	}
	if o.ForeignKeys && !strings.Contains(steps, "f") {
		steps += "f"
	}
	o.InitSteps = steps
	return o.checkSupported()
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
		if o.Protocol != Simple {
			if err := sc.CheckExtended(o.defined()); err != nil {
				return fmt.Errorf("-M %s: %w", o.Protocol, err)
			}
		}
		o.Scripts = append(o.Scripts, sc)
	}
	return parse.CheckScripts(o.Scripts)
}

// defined are the variables -D defines.
func (o *Options) defined() []string {
	names := make([]string, len(o.Defines))
	for i, d := range o.Defines {
		names[i] = d.Name
	}
	return names
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
