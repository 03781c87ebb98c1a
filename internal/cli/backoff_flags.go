package cli

import (
	"time"

	"github.com/spf13/pflag"

	"github.com/dbgauge/dbgauge/internal/cli/flagtype"
	"github.com/dbgauge/dbgauge/internal/driver"
)

// backoffFlags are --backoff-cap and --give-up: how a load command that
// retries or reconnects waits out a server that restarts or is briefly
// unreachable.
type backoffFlags struct {
	fs          *pflag.FlagSet
	cap, giveUp *flagtype.Value[time.Duration]
	// needs names the command's flags that make it retry.
	needs string
}

func newBackoffFlags(needs string) backoffFlags {
	return backoffFlags{needs: needs,
		cap:    flagtype.Duration(driver.DefaultBackoffCap).WithExample("2s"),
		giveUp: flagtype.Duration(driver.DefaultGiveUp).WithExample("60s"),
	}
}

func (f *backoffFlags) bind(fl *pflag.FlagSet) {
	f.fs = fl
	fl.Var(f.cap, "backoff-cap", "with "+f.needs+": the longest wait between attempts after the connection was lost or refused, or the server was shutting down, starting or full (capped exponential backoff from 10ms, jittered)")
	fl.Var(f.giveUp, "give-up", "with "+f.needs+": how long such a fault may last before the run fails, naming it")
	inGroup(fl, "Waiting out a server's faults", "backoff-cap", "give-up")
}

// plan checks the flags against each other and returns the values; they
// mean something only when the run retries or reconnects.
func (f *backoffFlags) plan(resilient bool) (capD, giveUp time.Duration, err error) {
	for _, name := range []string{"backoff-cap", "give-up"} {
		if f.fs.Changed(name) && !resilient {
			return 0, 0, usagef("--%s applies only with %s: add it or leave --%s out", name, f.needs, name)
		}
	}
	if f.giveUp.V < f.cap.V {
		return 0, 0, usagef("--give-up %s is shorter than --backoff-cap %s: give up after at least one full wait (e.g. --give-up %s)", f.giveUp.V, f.cap.V, 30*f.cap.V)
	}
	if !resilient {
		return 0, 0, nil
	}
	return f.cap.V, f.giveUp.V, nil
}
