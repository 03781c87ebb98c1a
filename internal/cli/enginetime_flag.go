package cli

import "github.com/spf13/pflag"

// bindEngineTime binds --engine-time, on by default: the engine's own
// time of each timed statement beside the client's (docs/wisconsin.md
// §8); what says where the run reports it.
func bindEngineTime(fl *pflag.FlagSet, p *bool, what string) {
	fl.BoolVar(p, "engine-time", true, "record the engine's own time of every timed statement beside the client's, where the engine reports it (PostgreSQL: pg_stat_statements, else EXPLAIN ANALYZE of a second execution; MariaDB: performance_schema; either turned on for the timed session alone where the server records no session, as private servers do; DuckDB: its profiler; "+what+"); --engine-time=false leaves it out")
}
