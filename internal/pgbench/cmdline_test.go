package pgbench

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// TestParseValues checks what the typed Options hold for command lines
// whose meaning pgbench's documentation states.
func TestParseValues(t *testing.T) {
	f := filepath.Join(t.TempDir(), "s.sql")
	write(t, f, "SELECT 1;\n")
	db := "sqlite:/tmp/x.db"
	o := mustParse(t, "-c8", "-j", "16", "-T", "30", "-nS", "-b", "tpcb@3", "-f", f+"@2", "-M", "prepared",
		"-R", "250.5", "-L", "7.5", "-D", "a=1", "-r", "-P", "5", "--max-tries=0", "--random-seed", "42", db)
	want := []ScriptSpec{{true, "select-only", 1}, {true, "tpcb-like", 3}, {false, f, 2}}
	if !reflect.DeepEqual(o.Specs, want) {
		t.Errorf("specs %+v, want %+v", o.Specs, want)
	}
	if len(o.Scripts) != 3 || o.Scripts[1].Weight != 3 || o.Scripts[1].Name != "<builtin: TPC-B (sort of)>" || o.TotalWeight != 6 || !o.PerScript {
		t.Errorf("scripts: %d, weight %d name %q, total %d, per script %v", len(o.Scripts), o.Scripts[1].Weight, o.Scripts[1].Name, o.TotalWeight, o.PerScript)
	}
	if o.Clients != 8 || o.Threads != 8 || o.Duration != 30*time.Second || o.Transactions != 0 || !o.NoVacuum {
		t.Errorf("clients %d threads %d (lowered to the clients) duration %v transactions %d no-vacuum %v", o.Clients, o.Threads, o.Duration, o.Transactions, o.NoVacuum)
	}
	if o.Protocol != Prepared || o.Rate != 250.5 || o.LatencyLimit != 7500*time.Microsecond || o.Progress != 5*time.Second || !o.PerCommand {
		t.Errorf("protocol %s rate %v limit %v progress %v per command %v", o.Protocol, o.Rate, o.LatencyLimit, o.Progress, o.PerCommand)
	}
	if o.MaxTries != 0 || !o.SeedGiven || o.Seed != 42 || !reflect.DeepEqual(o.Defines, []Define{{"a", "1"}}) || o.DB != db {
		t.Errorf("max tries %d seed %v/%d defines %v db %q", o.MaxTries, o.SeedGiven, o.Seed, o.Defines, o.DB)
	}

	o = mustParse(t, db)
	if o.Transactions != 10 || o.Clients != 1 || o.MaxTries != 1 || o.Protocol != Simple || len(o.Scripts) != 1 || o.Specs[0].Name != "tpcb-like" || o.PerScript {
		t.Errorf("defaults: %+v", o)
	}

	o = mustParse(t, "-i", "-s", "3", "-n", "--foreign-keys", "-F", "90", db)
	if o.Mode != Initialize || o.InitSteps != "dtg pf" || o.Scale != 3 || o.FillFactor != 90 {
		t.Errorf("init: mode %v steps %q scale %d fillfactor %d", o.Mode, o.InitSteps, o.Scale, o.FillFactor)
	}
	o = mustParse(t, "-i", "-I", "dtf", "--foreign-keys", db)
	if o.InitSteps != "dtf" {
		t.Errorf("--foreign-keys added f twice or lost the steps: %q", o.InitSteps)
	}

	for args, url := range map[string]string{
		"-h localhost -p 5433 -U bench mydb": "postgres://bench@localhost:5433/mydb",
		"-h /var/run/postgresql mydb":        "postgres:///mydb?host=%2Fvar%2Frun%2Fpostgresql",
		"-U bench":                           "postgres://bench@/bench",
	} {
		o := mustParse(t, strings.Fields(args)...)
		if o.DB != url {
			t.Errorf("%s: database %q, want %q", args, o.DB, url)
		}
	}
}

// TestParseRefusals checks dbgauge's own refusals, each one line naming
// the option.
func TestParseRefusals(t *testing.T) {
	for args, word := range map[string]string{
		"":                                 "no database",
		"-c 2":                             "no database",
		"-h localhost postgres://u@h/db":   "-h, -p and -U",
		"nosuch:thing":                     "nosuch",
		"-l sqlite:x.db":                   "-l/--log",
		"-i --partitions 2 sqlite:x.db":    "--partitions",
		"-c 2 -t 1 -T 1 sqlite:x.db":       "(-t)",
		"--max-tries 0 -t 5 sqlite:x.db":   "--max-tries",
		"-f /no/such/file.sql sqlite:x.db": "/no/such/file.sql",
	} {
		_, err := Parse(strings.Fields(args), nil)
		if err == nil || !strings.Contains(err.Error(), word) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v, want one line with %q", args, err, word)
		}
		if dbms.Classify(err) != dbms.BadInput {
			t.Errorf("%q: %v is not classified as bad input (exit 2)", args, err)
		}
	}
}

func mustParse(t *testing.T, args ...string) *Options {
	t.Helper()
	o, err := Parse(args, nil)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return o
}
