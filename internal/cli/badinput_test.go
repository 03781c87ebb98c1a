package cli

import (
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/server"
)

// password is in every URL of the cases that give one: no message may
// show it.
const password = "s3cret"

// badInputCase is one bad command line: it must exit 2 with one line on
// stderr that holds name (the flag or argument at fault) and fix (what to
// do instead), and write nothing.
type badInputCase struct {
	name       string
	args       []string
	names, fix string
	// bare: no --out is added (a command without one, or a case about
	// --out or the default run directory).
	bare bool
}

// TestBadInputTable runs every kind of bad input in-process, each in an
// empty working directory, and checks the rule: exit code 2, exactly one
// line on stderr naming the flag or argument and suggesting a fix, no
// password echoed, and nothing written: no --out directory, no runs/ (nor
// anything else) in the working directory, no catalog anywhere.
func TestBadInputTable(t *testing.T) {
	fx := t.TempDir() // fixtures, read-only for the cases
	closed, _ := server.FreePort()
	port := itoa(closed)
	file := writeFile(t, fx, "plain.txt", "not a directory\n")
	full := filepath.Join(fx, "full")
	os.Mkdir(full, 0o755)
	writeFile(t, full, "keep.txt", "a file already there\n")
	cfg := func(name, body string) string { return writeFile(t, fx, name, body) }
	goodScript := writeFile(t, fx, "good.sql", "SELECT 1;\n")
	badScript := func(name, body string) string { return writeFile(t, fx, name, body) }
	runDir := func(name, experiment string) string {
		d := filepath.Join(fx, name)
		os.Mkdir(d, 0o755)
		writeFile(t, d, "results.json", `{"experiment": "`+experiment+`", "complete": true}`)
		return d
	}
	wisc, stor := runDir("wisc-run", "wisconsin"), runDir("storage-run", "storage")
	corrupt := filepath.Join(fx, "corrupt-run")
	os.Mkdir(corrupt, 0o755)
	writeFile(t, corrupt, "manifest.json", `{"experiment": "wisconsin"}`)
	writeFile(t, corrupt, "results.json", `{"experiment": "wisconsin", `)
	pgInst := filepath.Join(fx, "pg-instance")
	os.Mkdir(pgInst, 0o755)
	writeFile(t, pgInst, "dbgauge-instance.json", `{"engine": "postgres", "dir": "`+pgInst+`", "port": 1}`)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	takenPort := itoa(taken.Addr().(*net.TCPAddr).Port)
	notRun := filepath.Join(fx, "not-a-run")
	os.Mkdir(notRun, 0o755)
	sql := writeFile(t, fx, "q.sql", "SELECT * FROM {table}")
	tlsCert, tlsKey := selfSigned(t, "192.0.2.1")
	bigPEM := cfg("big.pem", strings.Repeat("# not a certificate, and more of it than a certificate file holds\n", 20000))

	cases := []badInputCase{
		// URLs
		{name: "unknown scheme", args: []string{"wisconsin", "--db", "oracle://u:" + password + "@h/db"}, names: "--db", fix: "known: "},
		{name: "malformed host", args: []string{"wisconsin", "--db", "postgres://u:" + password + "@[::1"}, names: "--db", fix: "forms: "},
		{name: "malformed mysql", args: []string{"dsbench", "--db", "mysql://u:" + password + "@[::1/db"}, names: "--db", fix: "forms: "},
		{name: "missing scheme", args: []string{"wisconsin", "--db", "://x"}, names: "--db", fix: "forms: "},
		{name: "sqlite without path", args: []string{"wisconsin", "--db", "sqlite:"}, names: "--db", fix: "sqlite:PATH"},
		{name: "bad port", args: []string{"wisconsin", "--db", "postgres://u:" + password + "@h:99999/db"}, names: "postgres://u:", fix: "invalid port"},
		{name: "unreachable postgres", args: []string{"wisconsin", "--db", "postgres://u:" + password + "@127.0.0.1:" + port + "/db"}, names: "127.0.0.1:" + port, fix: "is the server running?"},
		{name: "unreachable mysql", args: []string{"multiuser", "--db", "mysql://u:" + password + "@127.0.0.1:" + port + "/db"}, names: "127.0.0.1:" + port, fix: "is the server running?"},
		{name: "unreachable without --out", bare: true, args: []string{"sizesweep", "--db", "postgres://u:" + password + "@127.0.0.1:" + port + "/db"}, names: "127.0.0.1:" + port, fix: "is the server running?"},
		{name: "abtest variant not a URL", args: []string{"abtest", "--a", "oracle://u:" + password + "@h/db", "--b", "sqlite:b.db"}, names: "--a", fix: "give --db URL"},
		{name: "abtest same variant", args: []string{"abtest", "--a", "sqlite:y.db", "--b", "sqlite:y.db"}, names: "A and B", fix: "give them different"},
		// sizes
		{name: "size not divisible", args: []string{"wisconsin", "--size", "10050"}, names: "--size", fix: "multiple of 100"},
		{name: "size not a number", args: []string{"wisconsin", "--size", "ten"}, names: "--size", fix: "example: --size"},
		{name: "size empty item", args: []string{"wisconsin", "--size", "100,,200"}, names: "--size", fix: "example: --size"},
		{name: "storage size unit", args: []string{"storage", "--size", "1XB"}, names: "--size", fix: "with a unit"},
		{name: "page size not a power of two", args: []string{"speedup", "--page-sizes", "3KiB"}, names: "--page-sizes", fix: "power of two"},
		{name: "memory zero", args: []string{"speedup", "--memory", "0"}, names: "--memory", fix: "example: --memory"},
		{name: "generate size zero", bare: true, args: []string{"generate", "--size", "0"}, names: "--size", fix: "example: --size"},
		// lists
		{name: "duplicate size", args: []string{"wisconsin", "--size", "1000,1000"}, names: "--size", fix: "given twice"},
		{name: "unknown query", args: []string{"wisconsin", "--queries", "1-33"}, names: "--queries", fix: "1-32"},
		{name: "org runs none of the queries", args: []string{"wisconsin", "--org", "hash", "--queries", "1"}, names: "--org hash --queries 1", fix: "(hash runs 7): add one of them to --queries"},
		{name: "orgs run none of the queries", args: []string{"wisconsin", "--org", "heap,indexed", "--queries", "3-8"}, names: "--org heap,indexed --queries 3-8", fix: "heap runs 1-2,9-11,18-22,26-28; indexed runs 23-25,29-32"},
		{name: "unknown org", args: []string{"wisconsin", "--org", "isam"}, names: "--org", fix: "choose from"},
		{name: "confidence 100", args: []string{"dsbench", "--confidence", "50,100"}, names: "--confidence", fix: "between 0 and 100"},
		{name: "users not a number", args: []string{"multiuser", "--users", "1,x"}, names: "--users", fix: "example: --users"},
		{name: "duplicate sizesweep size", args: []string{"sizesweep", "--sizes", "100,100"}, names: "--sizes", fix: "given twice"},
		{name: "cpu list", args: []string{"qac", "--wisconsin", "1", "--cardinalities", "1000", "--cpus", "one"}, names: "--cpus", fix: "CPU number"},
		// durations
		{name: "negative limit", args: []string{"wisconsin", "--limit", "-1s"}, names: "--limit", fix: "example: --limit"},
		{name: "limit without unit", args: []string{"wisconsin", "--limit", "5"}, names: "--limit", fix: "with a unit"},
		{name: "zero duration", args: []string{"dsbench", "--duration", "0s"}, names: "--duration", fix: "example: --duration"},
		{name: "duration not a duration", args: []string{"storage", "--duration", "xyz"}, names: "--duration", fix: "with a unit"},
		// counts
		{name: "zero reps", args: []string{"wisconsin", "--reps", "0"}, names: "--reps", fix: "at least 1"},
		{name: "reps float", args: []string{"wisconsin", "--reps", "1e99"}, names: "--reps", fix: "example: --reps"},
		{name: "cycles with suffix", args: []string{"dsbench", "--cycles", "1k"}, names: "--cycles", fix: "example: --cycles"},
		{name: "zero connections", args: []string{"dsbench", "--connections", "0"}, names: "--connections", fix: "at least 1"},
		{name: "negative threads", args: []string{"dsbench", "--threads", "-1"}, names: "--threads", fix: "example: --threads"},
		{name: "zero scale", args: []string{"dsbench", "--scales", "0"}, names: "--scales", fix: "example: --scales"},
		// counts beyond what the machine holds (open files or memory,
		// whichever this machine runs out of first)
		{name: "threads beyond the machine", args: []string{"dsbench", "--threads", "100000000"}, names: "--threads 100000000 x --connections 1", fix: "at most"},
		{name: "connections beyond the machine", args: []string{"dsbench", "--threads", "1", "--connections", "100000000"}, names: "--connections 100000000", fix: "give --connections"},
		{name: "open-loop threads beyond the machine", args: []string{"dsbench", "--threads", "100000000", "--rate", "10"}, names: "--threads 100000000", fix: "give --threads"},
		{name: "nodes beyond the machine", args: []string{"dsbench", "--nodes", "100000000", "--db", "sqlite:x.db", "--listen", "127.0.0.1:0"}, names: "--nodes 100000000", fix: "give --nodes"},
		{name: "cycles beyond the machine", args: []string{"dsbench", "--cycles", "1000000000", "--duration", "1ms"}, names: "--cycles 1000000000", fix: "give --cycles"},
		{name: "pairs beyond the machine", args: []string{"abtest", "--reps", "1000000000", "--a", "sqlite:a.db", "--b", "sqlite:b.db"}, names: "--reps 1000000000", fix: "give --reps"},
		{name: "users beyond the machine", args: []string{"multiuser", "--users", "0,1,100000000"}, names: "--users 0,1,100000000", fix: "give --users"},
		{name: "retrieves beyond the machine", args: []string{"multiuser", "--users", "0,1", "--retrieves", "1000000000000"}, names: "--users 0,1 x --retrieves 1000000000000", fix: "give fewer --retrieves"},
		{name: "negative warmup", args: []string{"sizesweep", "--warmup", "-1"}, names: "--warmup", fix: "example: --warmup"},
		{name: "too few qes", args: []string{"qac", "--wisconsin", "1", "--cardinalities", "1000", "--qe", "3"}, names: "--qe", fix: "at least 6"},
		// choices
		{name: "cache hot", args: []string{"wisconsin", "--cache", "hot"}, names: "--cache", fix: "warm or cold"},
		{name: "protocol", args: []string{"wisconsin", "--protocol", "tucson"}, names: "--protocol", fix: "none or ttp"},
		{name: "mode", args: []string{"dsbench", "--mode", "tpcc"}, names: "--mode", fix: "tpcb, orders, select or script"},
		{name: "orders zero warehouses", args: []string{"dsbench", "--workload", "orders", "--scales", "0"}, names: "--scales", fix: "is not a positive whole number"},
		{name: "orders mix not 100", args: []string{"dsbench", "--workload", "orders", "--mix", "45,43,4,4,5"}, names: "--mix 45,43,4,4,5", fix: "add up to 101, not 100"},
		{name: "orders mix short", args: []string{"dsbench", "--workload", "orders", "--mix", "50,50"}, names: "--mix 50,50", fix: "give 5 percentages"},
		{name: "orders keyed too few terminals", args: []string{"dsbench", "--workload", "orders", "--waits", "--scales", "1,2", "--threads", "4"}, names: "--threads", fix: "give --threads 20"},
		{name: "orders keyed with a rate", args: []string{"dsbench", "--workload", "orders", "--waits", "--scales", "1", "--threads", "10", "--rate", "50"}, names: "--rate with --waits", fix: "leave out --rate"},
		{name: "populate without db", args: []string{"populate"}, names: "--db is required", fix: "give the engine URL"},
		{name: "populate script workload", args: []string{"populate", "--db", "sqlite:" + filepath.Join(fx, "p.db"), "--workload", "script"}, names: "--workload script", fix: "runs under dbgauge dsbench"},
		{name: "check scale zero", args: []string{"check", "--db", "sqlite:" + filepath.Join(fx, "c.db"), "--scale", "0"}, names: "--scale", fix: "at least 1"},
		{name: "check unknown workload", args: []string{"check", "--db", "sqlite:" + filepath.Join(fx, "c.db"), "--workload", "tpcc"}, names: "--workload tpcc", fix: "orders"},
		{name: "check workload without check", args: []string{"check", "--db", "sqlite:" + filepath.Join(fx, "c.db"), "--workload", "tpcb"}, names: "--workload tpcb", fix: "dbgauge dsbench"},
		{name: "mix with another workload", args: []string{"dsbench", "--mix", "45,43,4,4,4"}, names: "--mix belongs to --workload orders", fix: "give --workload orders"},
		{name: "script workload without script", args: []string{"dsbench", "--workload", "script"}, names: "--script", fix: "give the pgbench script"},
		{name: "script with another workload", args: []string{"dsbench", "--mode", "select", "--script", goodScript}, names: "--script belongs to --workload script", fix: "give --workload script"},
		{name: "define with another workload", args: []string{"dsbench", "-D", "x=1"}, names: "--define belongs to --workload script", fix: "leave --define out"},
		{name: "script missing", args: []string{"dsbench", "--workload", "script", "--script", filepath.Join(fx, "nosuch.sql")}, names: "--script " + filepath.Join(fx, "nosuch.sql"), fix: "could not open file"},
		{name: "script bad weight", args: []string{"dsbench", "--workload", "script", "--script", goodScript + "@x"}, names: "@x", fix: "e.g. script.sql@2"},
		{name: "script unknown meta-command", args: []string{"dsbench", "--workload", "script", "--script", badScript("unknown.sql", "SELECT 1;\n\\foo 1\n")}, names: filepath.Join(fx, "unknown.sql") + ":2:1", fix: "the meta-commands are"},
		{name: "script bad expression", args: []string{"dsbench", "--workload", "script", "--script", badScript("expr.sql", "\\set x 1 +\n")}, names: filepath.Join(fx, "expr.sql") + ":1:10", fix: "syntax error"},
		{name: "script unclosed if", args: []string{"dsbench", "--workload", "script", "--script", badScript("if.sql", "\\if 1\nSELECT 1;\n")}, names: filepath.Join(fx, "if.sql") + ":1:1", fix: "close the chain with \\endif"},
		{name: "script undefined variable", args: []string{"dsbench", "--workload", "script", "--script", badScript("undef.sql", "SELECT :nope;\n")}, names: filepath.Join(fx, "undef.sql") + ":1:8", fix: "check its spelling"},
		{name: "init bad expression", args: []string{"dsbench", "--workload", "script", "--script", goodScript, "--init", badScript("init.sql", "\\set n 1 +\n")}, names: filepath.Join(fx, "init.sql") + ":1:10", fix: "syntax error"},
		{name: "script protocol", args: []string{"dsbench", "--workload", "script", "--script", goodScript, "--protocol", "fast"}, names: "--protocol", fix: "use simple, extended or prepared"},
		{name: "script max-tries", args: []string{"dsbench", "--workload", "script", "--script", goodScript, "--max-tries", "0"}, names: "--max-tries 0", fix: "give 1 or more"},
		{name: "script define", args: []string{"dsbench", "--workload", "script", "--script", goodScript, "-D", "novalue"}, names: "--define", fix: "-D NAME=VALUE"},
		{name: "script shell", args: []string{"dsbench", "--workload", "script", "--script", badScript("shell.sql", "\\shell true\n")}, names: filepath.Join(fx, "shell.sql") + ":1:1", fix: "allow it with --allow-shell"},
		{name: "procedure form on sqlite", args: []string{"dsbench", "--db", "sqlite:x.db", "--form", "procedure"}, names: "--form procedure", fix: "use --form statements"},
		{name: "procedure form on duckdb", args: []string{"dsbench", "--db", "duckdb:x.duckdb", "--form", "procedure"}, names: "--form procedure", fix: "use --form statements"},
		{name: "procedure form on the default engine", args: []string{"dsbench", "--form", "procedure"}, names: "--form procedure", fix: "use --form statements"},
		{name: "orders procedure form on sqlite", args: []string{"dsbench", "--workload", "orders", "--db", "sqlite:x.db", "--form", "procedure"}, names: "--form procedure", fix: "use --form statements"},
		{name: "isolation", args: []string{"dsbench", "--isolation", "bogus"}, names: "--isolation", fix: "repeatable-read"},
		{name: "relation", bare: true, args: []string{"generate", "--relation", "x"}, names: "--relation", fix: "tenktup1"},
		{name: "bool", args: []string{"wisconsin", "--drop=maybe"}, names: "--drop", fix: "true or false"},
		// rates far beyond reach (the upper bound of --rate is not this branch's)
		{name: "rate overflows", args: []string{"dsbench", "--rate", "1e400"}, names: "--rate", fix: "example: --rate"},
		{name: "negative rate", args: []string{"dsbench", "--rate", "-5"}, names: "--rate", fix: "example: --rate"},
		{name: "rate not a number", args: []string{"dsbench", "--rate", "fast"}, names: "--rate", fix: "example: --rate"},
		// config files of every wrong shape
		{name: "config not YAML", args: []string{"wisconsin", "--config", cfg("notyaml.yaml", "size: [1\n")}, names: "--config", fix: "flag: value per line"},
		{name: "config list", args: []string{"wisconsin", "--config", cfg("list.yaml", "- size\n- 100\n")}, names: "--config", fix: "flag: value per line"},
		{name: "config scalar", args: []string{"wisconsin", "--config", cfg("scalar.yaml", "hello\n")}, names: "--config", fix: "flag: value per line"},
		{name: "config number key", args: []string{"wisconsin", "--config", cfg("intkey.yaml", "1: 2\n")}, names: "--config", fix: "flag: value per line"},
		{name: "config unknown key", args: []string{"wisconsin", "--config", cfg("unknown.yaml", "sizes: 10\n")}, names: "unknown key", fix: "long flag names"},
		{name: "config bad value", args: []string{"wisconsin", "--config", cfg("bad.yaml", "size: 150\n")}, names: "key size", fix: "multiple of 100"},
		{name: "config mapping value", args: []string{"wisconsin", "--config", cfg("map.yaml", "size:\n  a: 1\n")}, names: "key size", fix: "not a mapping"},
		{name: "config empty file", args: []string{"wisconsin", "--config", cfg("empty.yaml", "")}, names: "--config", fix: "flag: value per line"},
		{name: "config only comments", args: []string{"dsbench", "--config", cfg("comments.yaml", "# nothing yet\n")}, names: "--config", fix: "flag: value per line"},
		{name: "config too large", args: []string{"wisconsin", "--config", cfg("large.yaml", "size: 1000\n"+strings.Repeat("# a comment line of a configuration file that does not end\n", 20000))}, names: "--config", fix: "larger than 1024 KiB"},
		{name: "config missing", args: []string{"wisconsin", "--config", filepath.Join(fx, "nope.yaml")}, names: "--config", fix: "give a YAML file"},
		{name: "config empty db", args: []string{"wisconsin", "--config", cfg("emptydb.yaml", "db: \"\"\n")}, names: "--db", fix: "give a value"},
		// output paths
		{name: "unwritable out", bare: true, args: []string{"wisconsin", "--out", "/proc/dbgauge-no/run"}, names: "--out", fix: "choose another --out"},
		{name: "file in out path", bare: true, args: []string{"wisconsin", "--out", filepath.Join(file, "run")}, names: "--out", fix: "choose another --out"},
		{name: "out is a file", bare: true, args: []string{"dsbench", "--out", file}, names: "--out", fix: "choose another --out"},
		{name: "out not empty", bare: true, args: []string{"sizesweep", "--out", full}, names: "--out", fix: "choose a new --out"},
		{name: "generate output", bare: true, args: []string{"generate", "--output", filepath.Join(fx, "nodir", "x.csv")}, names: "--output", fix: "choose another --output"},
		// report and compare
		{name: "report without DIR", bare: true, args: []string{"report"}, names: "run directory", fix: "dbgauge report DIR"},
		{name: "report not a run", bare: true, args: []string{"report", notRun}, names: notRun, fix: "give a run directory"},
		{name: "report html of two", bare: true, args: []string{"report", "--html", filepath.Join(fx, "p.html"), wisc, wisc}, names: "--html", fix: "give one DIR"},
		// A corrupt run given as input is bad input, to report and compare alike.
		{name: "report corrupt results", bare: true, args: []string{"report", corrupt}, names: filepath.Join(corrupt, "results.json"), fix: "give a run directory as dbgauge wrote it"},
		{name: "report html of corrupt results", bare: true, args: []string{"report", "--html", "p.html", corrupt}, names: filepath.Join(corrupt, "results.json"), fix: "give a run directory as dbgauge wrote it"},
		{name: "compare corrupt results", bare: true, args: []string{"compare", wisc, corrupt}, names: filepath.Join(corrupt, "results.json"), fix: "give a run directory as dbgauge wrote it"},
		{name: "compare one DIR", bare: true, args: []string{"compare", wisc}, names: "run directory", fix: "dbgauge compare BASELINE DIR"},
		{name: "compare not a run", bare: true, args: []string{"compare", wisc, notRun}, names: notRun, fix: "give run directories"},
		{name: "compare different experiments", bare: true, args: []string{"compare", wisc, stor}, names: stor, fix: "only runs of the same experiment"},
		// empty strings where a value is required
		{name: "empty db", args: []string{"wisconsin", "--db", ""}, names: "--db", fix: "give a value"},
		{name: "empty out", bare: true, args: []string{"wisconsin", "--out", ""}, names: "--out", fix: "give a value"},
		{name: "empty config", args: []string{"dsbench", "--config", ""}, names: "--config", fix: "give a value"},
		{name: "empty size", args: []string{"wisconsin", "--size", ""}, names: "--size", fix: "give at least one value"},
		{name: "empty server", args: []string{"qac", "--wisconsin", "1", "--cardinalities", "1000", "--server", ""}, names: "--server", fix: "give a value"},
		{name: "empty load db", args: []string{"load", "--db", ""}, names: "--db", fix: "give a value"},
		{name: "empty list dir", bare: true, args: []string{"list", "--dir", ""}, names: "--dir", fix: "give a value"},
		{name: "ui off loopback", bare: true, args: []string{"ui", "--listen", "0.0.0.0:8080"}, names: "--listen 0.0.0.0:8080", fix: "add --token"},
		{name: "ui bad listen", bare: true, args: []string{"ui", "--listen", "8080"}, names: "--listen 8080", fix: "not HOST:PORT: give one, e.g. --listen 127.0.0.1:8080"},
		{name: "ui short token", bare: true, args: []string{"ui", "--listen", "192.0.2.7:8080", "--token", "s3cret"}, names: "--token", fix: "give 16 random bytes or more off loopback, e.g. --token $(openssl rand -hex 16)"},
		{name: "ui guessable token", bare: true, args: []string{"ui", "--listen", "192.0.2.7:8080", "--token", strings.Repeat("ab", 40)}, names: "--token", fix: "give 16 random bytes"},
		{name: "ui empty host", bare: true, args: []string{"ui", "--host", ""}, names: "--host", fix: "NAME or NAME:PORT"},
		{name: "ui missing dir", bare: true, args: []string{"ui", "--dir", "no-such-runs"}, names: "--dir no-such-runs", fix: "give the directory of runs"},
		{name: "empty html", bare: true, args: []string{"report", "--html", "", wisc}, names: "--html", fix: "give a value"},
		// contradictory flags
		{name: "dsi with threads", args: []string{"dsbench", "--dsi", "--threads", "4"}, names: "--threads", fix: "leave out --threads"},
		{name: "dsi with scales", args: []string{"dsbench", "--dsi", "--scales", "1"}, names: "--scales", fix: "leave out --scales"},
		{name: "backoff cap without retry", args: []string{"dsbench", "--backoff-cap", "1s"}, names: "--backoff-cap", fix: "--retry or --reconnect"},
		{name: "give-up without retry", args: []string{"multiuser", "--give-up", "10s"}, names: "--give-up", fix: "add it or leave --give-up out"},
		{name: "give-up under backoff cap", args: []string{"dsbench", "--retry", "--backoff-cap", "5s", "--give-up", "1s"}, names: "--give-up", fix: "e.g. --give-up"},
		{name: "zero backoff cap", args: []string{"dsbench", "--retry", "--backoff-cap", "0s"}, names: "--backoff-cap", fix: "positive"},
		{name: "qac table missing", args: []string{"qac", "--sql", sql, "--table", "nosuch", "--key", "k", "--cardinalities", "1000"}, names: "--table nosuch --key k", fix: "give a table of the database"},
		{name: "sql and wisconsin", args: []string{"qac", "--sql", sql, "--wisconsin", "1", "--cardinalities", "1000", "--table", "t", "--key", "k"}, names: "--sql and --wisconsin", fix: "give one of them"},
		{name: "server without db", args: []string{"wisconsin", "--server", fx}, names: "--server", fix: "dbgauge server start"},
		// commands, arguments and flags
		{name: "unknown flag", args: []string{"wisconsin", "--bogus"}, names: "--bogus", fix: "--help lists"},
		{name: "flag without value", bare: true, args: []string{"wisconsin", "--size"}, names: "--size", fix: "example: --size"},
		{name: "stray argument", args: []string{"wisconsin", "extra"}, names: `"extra"`, fix: "--help lists"},
		{name: "unknown command", bare: true, args: []string{"wisconsn"}, names: `"wisconsn"`, fix: "did you mean wisconsin"},
		{name: "load without db", args: []string{"load"}, names: "--db", fix: "example: --db"},
		{name: "nodes without listen", args: []string{"dsbench", "--nodes", "2"}, names: "--nodes", fix: "add --listen"},
		{name: "listen without db", args: []string{"dsbench", "--nodes", "2", "--listen", "127.0.0.1:0"}, names: "--listen", fix: "--db"},
		{name: "listen and nats", args: []string{"dsbench", "--nodes", "2", "--db", "postgres://u@127.0.0.1:1/d", "--listen", "127.0.0.1:0", "--nats", "nats://127.0.0.1:1"}, names: "--listen and --nats", fix: "give one"},
		{name: "listen exposed", args: []string{"dsbench", "--nodes", "2", "--db", "postgres://u@127.0.0.1:1/d", "--listen", "192.0.2.1:4222"}, names: "--listen", fix: "--token"},
		{name: "listen port out of range", args: []string{"dsbench", "--nodes", "1", "--db", "sqlite:x.db", "--listen", "127.0.0.1:99999"}, names: "--listen 127.0.0.1:99999", fix: "a free port"},
		{name: "listen not this machine", args: []string{"dsbench", "--nodes", "1", "--db", "sqlite:x.db", "--listen", "192.0.2.1:4222", "--token", "0123456789abcdef0123456789", "--tls-cert", tlsCert, "--tls-key", tlsKey}, names: "--listen 192.0.2.1:4222", fix: "an address of this machine"},
		// certificate files read bounded (a path to /dev/zero must not fill memory)
		{name: "tls-cert too large", args: []string{"dsbench", "--nodes", "1", "--db", "sqlite:x.db", "--listen", "127.0.0.1:0", "--tls-cert", bigPEM, "--tls-key", tlsKey}, names: "--tls-cert " + bigPEM, fix: "larger than 1024 KiB"},
		{name: "tls-key too large", args: []string{"dsbench", "--nodes", "1", "--db", "sqlite:x.db", "--listen", "127.0.0.1:0", "--tls-cert", tlsCert, "--tls-key", bigPEM}, names: "--tls-key " + bigPEM, fix: "larger than 1024 KiB"},
		{name: "nats closed port", args: []string{"dsbench", "--nodes", "1", "--db", "sqlite:x.db", "--nats", "nats://127.0.0.1:" + port}, names: "--nats nats://127.0.0.1:" + port, fix: "a NATS server that runs"},
		{name: "token without listen", args: []string{"dsbench", "--token", "t"}, names: "--token", fix: "add --listen"},
		{name: "agent master not nats", bare: true, args: []string{"agent", "--master", "http://127.0.0.1:1"}, names: "--master", fix: "nats://"},
		{name: "agent exposed", bare: true, args: []string{"agent", "--master", "nats://192.0.2.1:4222"}, names: "--master", fix: "--token"},
		{name: "agent tls-ca missing", bare: true, args: []string{"agent", "--master", "tls://127.0.0.1:" + port, "--tls-ca", filepath.Join(fx, "no-ca.pem"), "--wait", "30s"}, names: "--tls-ca", fix: "give the PEM file"},
		{name: "agent tls-ca not PEM", bare: true, args: []string{"agent", "--master", "tls://127.0.0.1:" + port, "--tls-ca", file, "--wait", "30s"}, names: "--tls-ca " + file + ": no PEM certificate", fix: "give the PEM file"},
		{name: "agent bad name", bare: true, args: []string{"agent", "--master", "nats://127.0.0.1:1", "--name", "a.b"}, names: "--name", fix: "letters, digits"},
		// private servers
		{name: "server dir is a file", bare: true, args: []string{"server", "start", "postgres", "--dir", file}, names: "--dir " + file, fix: "give a directory for the instance's data"},
		{name: "server dir below a file", bare: true, args: []string{"server", "start", "mariadb", "--dir", filepath.Join(file, "x")}, names: "--dir " + filepath.Join(file, "x"), fix: "is a file"},
		{name: "server port taken", bare: true, args: []string{"server", "start", "postgres", "--port", takenPort, "--dir", "inst"}, names: "--port " + takenPort, fix: "give a free port"},
		{name: "server stop without instance", bare: true, args: []string{"server", "stop", "postgres", "--dir", notRun}, names: "--dir " + notRun, fix: "give the --dir that dbgauge server start was given"},
		{name: "server stop another engine", bare: true, args: []string{"server", "stop", "mariadb", "--dir", pgInst}, names: "--dir " + pgInst + " holds a postgres instance, not mariadb", fix: "dbgauge server stop postgres"},
		// tags
		{name: "tag with a space", args: []string{"sizesweep", "--tag", "two words"}, names: "--tag", fix: "example: --tag nightly"},
		{name: "tag with a dash first", args: []string{"dsbench", "--tag", "-x"}, names: "--tag", fix: "begin with a letter or a digit"},
		{name: "empty tag in a list", args: []string{"multiuser", "--tag", "a,,b"}, names: "--tag", fix: "example: --tag nightly"},
		{name: "empty tag", args: []string{"wisconsin", "--tag", ""}, names: "--tag", fix: "example: --tag nightly"},
		{name: "bad tag in config", args: []string{"qac", "--config", cfg("tag.yaml", "tag: [nightly, 'two words']\n")}, names: "key tag", fix: "example: tag: nightly"},
		{name: "list bad tag", bare: true, args: []string{"list", "--dir", fx, "--tag", "a/b"}, names: "--tag", fix: "example: --tag nightly"},
		{name: "tag not a run", bare: true, args: []string{"tag", notRun, "+x"}, names: notRun, fix: "give a run directory that dbgauge wrote"},
		{name: "tag without manifest", bare: true, args: []string{"tag", wisc, "x"}, names: wisc, fix: "give a run directory that dbgauge wrote"},
		{name: "tag bad tag", bare: true, args: []string{"tag", wisc, "a b"}, names: `tag "a b"`, fix: "example: dbgauge tag DIR +nightly"},
		{name: "tag without dir", bare: true, args: []string{"tag"}, names: "the run directory", fix: "dbgauge tag DIR"},
	}
	experiments := []string{"wisconsin", "dsbench", "qac", "multiuser", "sizesweep", "abtest", "speedup", "storage", "quickstart", "load"}
	if len(cases) < 60 {
		t.Fatalf("%d cases; the table is to cover at least 60", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wd := t.TempDir()
			t.Chdir(wd)
			args, out := c.args, ""
			if !c.bare && slices.Contains(experiments, c.args[0]) {
				out = filepath.Join(t.TempDir(), "run")
				args = append(slices.Clone(c.args), "--out", out)
			}
			before := listing(t, fx)
			code, _, stderr := run(args...)
			if code != ExitBadInput {
				t.Errorf("exit code %d, want 2 (stderr %q)", code, stderr)
			}
			line := strings.TrimSuffix(stderr, "\n")
			if line == "" || strings.Contains(line, "\n") {
				t.Errorf("stderr is not exactly one line: %q", stderr)
			}
			if !strings.Contains(line, c.names) {
				t.Errorf("stderr %q does not name %q", line, c.names)
			}
			if !strings.Contains(line, c.fix) {
				t.Errorf("stderr %q does not suggest the fix %q", line, c.fix)
			}
			if strings.Contains(stderr, password) {
				t.Errorf("stderr shows the password: %q", stderr)
			}
			if out != "" {
				if _, err := os.Stat(out); err == nil {
					t.Errorf("--out %s was written on bad input", out)
				}
			}
			if got := listing(t, wd); len(got) > 0 {
				t.Errorf("written into the working directory on bad input: %v", got)
			}
			if got := listing(t, fx); !slices.Equal(got, before) {
				t.Errorf("the fixtures changed on bad input: %v, was %v", got, before)
			}
		})
	}
}

// listing is every path below dir, sorted (a catalog.db, a runs/, a
// report.html would show).
func listing(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err == nil && p != dir {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	return out
}
