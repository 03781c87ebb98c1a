package results

// PgbenchResults is a run of `dbgauge pgbench`: pgbench's command line,
// the figures its report prints, and what dbgauge adds to them:
// residence-time percentiles of the whole run, per script and per
// command.
type PgbenchResults struct {
	Header
	// Args is the pgbench command line as given (after "pgbench"),
	// passwords hidden.
	Args []string `json:"args"`
	// The run's settings as the report prints them.
	Scale    int    `json:"scale"`
	Clients  int    `json:"clients"`
	Threads  int    `json:"threads"`
	Protocol string `json:"protocol"`
	// Transactions is -t, per client (0 with -T); DurationS is -T.
	Transactions int     `json:"transactions_per_client,omitempty"`
	DurationS    float64 `json:"duration_s,omitempty"`
	MaxTries     uint32  `json:"max_tries"`
	RateTPS      float64 `json:"rate_tps,omitempty"`
	// Counts over the run, as pgbench counts them.
	Processed int64 `json:"processed"`
	Failed    int64 `json:"failed"`
	Skipped   int64 `json:"skipped"`
	Retried   int64 `json:"retried"`
	Retries   int64 `json:"retries"`
	// Aborted counts the clients that stopped on an error.
	Aborted int `json:"aborted,omitempty"`
	// ElapsedS is the benchmarking time the tps is over.
	ElapsedS         float64 `json:"elapsed_s"`
	TPS              float64 `json:"tps"`
	LatencyAverageMS float64 `json:"latency_average_ms"`
	// LatencyStddevMS is 0 when pgbench does not time every transaction
	// (no -R, -P or -L), as its report then shows none.
	LatencyStddevMS float64 `json:"latency_stddev_ms,omitempty"`
	// ClientCPUS is the CPU time (user and system, every thread) this
	// process used while the clients ran, from the start of benchmarking to
	// the end of the last transaction: the client's cost, without the
	// start, the vacuum and the run directory; ClientCPUPerTxUS is it per
	// processed transaction, in microseconds.
	ClientCPUS       float64 `json:"client_cpu_s"`
	ClientCPUPerTxUS float64 `json:"client_cpu_per_tx_us"`
	// Percentiles are the processed transactions' residence times.
	Percentiles
	// Types are per script (in command-line order) with its commands as
	// statements.
	Types []TypeFigures `json:"types,omitempty"`
	// Report is pgbench's report text as the run printed it.
	Report string `json:"report"`
}
