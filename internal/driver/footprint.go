package driver

// FilesReserved are the open files a load process keeps besides its
// client sessions: standard streams, the run's journal, live stream,
// manifest and catalog, an embedded engine's files, NATS sockets
// (measured: 13 in a dsbench run on SQLite with one thread).
const FilesReserved = 16

// stackBytes is a goroutine's stack at its start (the runtime's minimum
// of 8 KiB doubled once: a worker calls into an engine's driver at once).
const stackBytes = 16 << 10

// sessionBytes is the least a client connection holds in this process
// whatever the engine: the database/sql or native driver's read and write
// buffers (pgx keeps 8 KiB of each, go-sql-driver/mysql 4 KiB) and the
// socket's own structures. SQLite's page cache comes on top, grown as it
// is used, so it is not counted.
const sessionBytes = 32 << 10

// WorkerBytes is the least memory one worker (one thread of a node) of a
// load holds while it runs, with conns connections: its dense histograms
// of residence times (with open, an open loop, of response times and
// start lags too), the live page's two per-second ones, its goroutine's
// stack and its sessions. A command bounds --threads by it before
// anything starts: a load the machine cannot hold would swap, measure the
// swapping, and die of it, as 100,000,000 threads did at 22 GB.
func WorkerBytes(conns int, open bool) int64 {
	dense := int64(NewHistogram().ByteSize())
	hists := dense
	if open {
		hists += 2 * dense
	}
	live := 2 * int64(newLiveHistogram().ByteSize())
	return hists + live + stackBytes + int64(max(conns, 1))*sessionBytes
}

// SessionBytes is the least memory one client session that records no
// histogram holds (multiuser's users): its goroutine's stack and its
// connection.
func SessionBytes() int64 { return stackBytes + sessionBytes }

// slotBytes is the least a master keeps per remote worker: its row of
// counts in the cycle's result.
const slotBytes = 64

// NodeBytes is the least memory a master keeps for one remote node of
// threads workers while it merges a cycle: the node's dense histograms
// as decoded from its report (residence; with open, response and lag
// too) and a slot per worker. dsbench bounds --nodes by it.
func NodeBytes(threads int, open bool) int64 { return mergedBytes(threads, open) }

// CycleBytes is the least memory a load keeps for each cycle it completed
// until its scale ends: the cycle's merged dense histograms (residence;
// with open, response and lag too) and a slot per worker of the workers
// (every node's threads). dsbench bounds --cycles by it: --cycles
// 1000000000 of 1 ms grew by 190 KiB a cycle, to 290 MB in 20 s, until
// memory ran out.
func CycleBytes(workers int, open bool) int64 { return mergedBytes(workers, open) }

// TypeBytes is the memory per-type figures add, for a workload of types
// transaction types timing statements statements in all (Config.Types,
// Config.Statements): a dense histogram per type and statement, held by
// every worker while it runs and by every completed cycle until its scale
// ends; 0 for a workload of one type without statements, whose figures
// are its totals. Add it to WorkerBytes and CycleBytes.
func TypeBytes(types, statements int) int64 {
	if types <= 1 && statements == 0 {
		return 0
	}
	return int64(max(types, 1)+statements) * int64(NewHistogram().ByteSize())
}

// mergedBytes is a merged cycle's dense histograms and a slot per worker.
func mergedBytes(workers int, open bool) int64 {
	n := int64(NewHistogram().ByteSize())
	if open {
		n *= 3
	}
	return n + int64(max(workers, 1))*slotBytes
}
