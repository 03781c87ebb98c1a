package cli

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/experiment"
	"github.com/dbgauge/dbgauge/internal/sysinfo"
)

// filesReserved are the open files a run keeps besides its sessions.
const filesReserved = driver.FilesReserved

// clientLoad is a load's size as the command line gave it, in units of
// the flag a user lowers (threads, users): each unit holds sessionsPer
// engine sessions (each at least one open file) and at least bytesPer
// bytes of this process's memory.
type clientLoad struct {
	given       string // the flags as given, e.g. "--threads 100000000 x --connections 1"
	flag        string // the flag to lower, e.g. "--threads"
	unit        string // what it counts, e.g. "thread"
	perFlag     string // the flag of the sessions per unit, e.g. "--connections" ("" if none)
	what        string // what holds the open files, e.g. "client sessions"
	units       int64
	sessionsPer int64
	bytesPer    int64
}

// fits refuses a load this machine cannot hold, before anything starts:
// more sessions than the process may open files, or more memory than it
// may take (c, see sysinfo.Capacity; an unknown bound is not checked).
// The bounds are floors of the need (driver.WorkerBytes): a load that
// passes may still meet the limit at run time, when the engine's own
// needs show (openFilesLimit says so then), but one refused here could
// never have run. One line names the flags, the bound and the fix.
func (l clientLoad) fits(c sysinfo.Capacity) error {
	units := max(l.units, 1)
	if c.OpenFiles > 0 && l.sessionsPer > 0 {
		room := max(c.OpenFiles-filesReserved, 0)
		if units > room/l.sessionsPer {
			return usagef("%s: %s %s, each holding at least one open file, and this process may open %d files (ulimit -n; %d kept for the run's own): %s, or raise ulimit -n",
				l.given, count(units, l.sessionsPer), l.what, c.OpenFiles, filesReserved, l.lower(room/l.sessionsPer, room))
		}
	}
	if c.MemoryBytes > 0 && units > c.MemoryBytes/l.bytesPer {
		return usagef("%s: they need at least %s of memory (%s a %s), more than %s, %s: %s",
			l.given, bytesText(float64(units)*float64(l.bytesPer)), bytesText(float64(l.bytesPer)), l.unit, c.MemorySource, bytesText(float64(c.MemoryBytes)), l.lower(c.MemoryBytes/l.bytesPer, 0))
	}
	return nil
}

// lower is the fix: the flag's largest value that fits, most; when not
// even one unit fits, the flag of the sessions per unit, at most
// sessions (0: lower it, no figure).
func (l clientLoad) lower(most, sessions int64) string {
	if most >= 1 || l.perFlag == "" {
		return fmt.Sprintf("give %s %d at most", l.flag, most)
	}
	if sessions > 0 {
		return fmt.Sprintf("give %s %d at most", l.perFlag, sessions)
	}
	return "give fewer " + l.perFlag
}

// count is units x per, or "more than 2^63" when it does not fit an int64.
func count(units, per int64) string {
	if units > (1<<63-1)/per {
		return "more than 9223372036854775807"
	}
	return fmt.Sprint(units * per)
}

// bytesText is n bytes in binary units, e.g. "18.6 TiB".
func bytesText(n float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i := 0
	for n >= 1024 && i < len(units)-1 {
		n /= 1024
		i++
	}
	return fmt.Sprintf("%.1f %s", n, units[i])
}

// threadLoad is a load of threads x connections clients run by this
// process (open: an open loop, which keeps more histograms per thread).
func threadLoad(threads, conns int, open bool) clientLoad {
	return clientLoad{given: fmt.Sprintf("--threads %d x --connections %d", threads, conns), flag: "--threads", unit: "thread", perFlag: "--connections", what: "client sessions",
		units: int64(threads), sessionsPer: int64(max(conns, 1)), bytesPer: driver.WorkerBytes(conns, open)}
}

// plus is the load with extra bytes per unit: the per-type figures a
// workload's types and statements add to each thread and each cycle
// (driver.TypeBytes).
func (l clientLoad) plus(bytes int64) clientLoad {
	l.bytesPer += bytes
	return l
}

// processBytes is the least memory a user process of multiuser
// --processes takes: a dbgauge process's Go runtime, its mapped program
// and its heap at start (about 48 MiB resident here; the floor is lower).
const processBytes = 16 << 20

// userLoad is multiuser's largest user count, each user one session of
// this process, or with processes one process of its own (whose session
// is its own, but whose pipes are this process's open files), and each
// its script of retrieves, built before the start.
func userLoad(given string, users, retrieves int, processes bool) clientLoad {
	per := driver.SessionBytes()
	if processes {
		per = processBytes
	}
	per += experiment.ScriptBytes(retrieves)
	return clientLoad{given: fmt.Sprintf("--users %s x --retrieves %d", given, retrieves), flag: "--users", unit: "user", perFlag: "--retrieves", what: "client sessions", units: int64(users), sessionsPer: 1, bytesPer: per}
}

// cycleLoad is a sweep's cycles per scale as the run keeps them until
// the scale ends (driver.CycleBytes; workers are every node's threads):
// memory only, a cycle holds no open file.
func cycleLoad(cycles, workers int, open bool) clientLoad {
	return clientLoad{given: fmt.Sprintf("--cycles %d", cycles), flag: "--cycles", unit: "cycle", what: "cycles",
		units: int64(cycles), bytesPer: driver.CycleBytes(workers, open)}
}

// pairLoad is abtest's pairs of one query, whose statements are built
// before the first runs (experiment.ABPairBytes): memory only.
func pairLoad(reps int) clientLoad {
	return clientLoad{given: fmt.Sprintf("--reps %d", reps), flag: "--reps", unit: "pair", what: "pairs",
		units: int64(reps), bytesPer: experiment.ABPairBytes()}
}

// nodeLoad is a sweep's remote agents as the master holds them: each
// agent a connection (an open file of this process when it embeds the
// NATS server, --listen), each node's cycle merged from its dense
// histograms (driver.NodeBytes).
func nodeLoad(nodes, threads int, open bool) clientLoad {
	return clientLoad{given: fmt.Sprintf("--nodes %d", nodes), flag: "--nodes", unit: "node", what: "agent connections",
		units: int64(nodes), sessionsPer: 1, bytesPer: driver.NodeBytes(threads, open)}
}
