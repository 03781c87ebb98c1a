package nodes

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/sysinfo"
)

// checkRoom refuses a job this agent's machine cannot hold, before a
// session opens: the master's command line bounded --threads by the
// master's machine, and the agent runs the clients on its own. The rule
// is the command line's (a file a session, driver.WorkerBytes a thread);
// the master then ends the run naming this agent and why.
func checkRoom(j job, c sysinfo.Capacity) error {
	threads, conns := int64(max(j.Threads, 1)), int64(max(j.Conns, 1))
	if c.OpenFiles > 0 && threads > max(c.OpenFiles-driver.FilesReserved, 0)/conns {
		return fmt.Errorf("%d threads x %d connections are more client sessions than this agent may open files (%d, ulimit -n; %d kept): lower --threads or --connections, or raise ulimit -n on the agent",
			threads, conns, c.OpenFiles, driver.FilesReserved)
	}
	if per := driver.WorkerBytes(int(conns), j.Rate > 0); c.MemoryBytes > 0 && threads > c.MemoryBytes/per {
		return fmt.Errorf("%d threads x %d connections need at least %d MiB of memory, more than %s on this agent, %d MiB: give --threads %d at most",
			threads, conns, threads*(per>>10)>>10, c.MemorySource, c.MemoryBytes>>20, c.MemoryBytes/per)
	}
	return nil
}
