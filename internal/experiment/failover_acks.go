package experiment

import (
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
)

// ackLog is what the clients of a run with a node fault were told,
// client by client: the sequence numbers of the transactions acknowledged
// to them since the last check (each transaction's writes carry the
// client's tag, workload.Session.TakeTag), and, while the fault is observed, every
// commit and failure with its time. Each client writes its own entry
// only, under a lock nobody else takes while the load runs.
type ackLog struct {
	clients []clientAcks
	// window is the observation's base (Unix ns) while it is open, 0
	// otherwise.
	window atomic.Int64
	// perClient bounds each client's events (the observation's memory).
	perClient int
	// cluster says the clients are spread over a cluster's nodes, whose
	// numbers the acknowledgements keep.
	cluster bool
}

// clientAcks is one client's entry.
type clientAcks struct {
	mu     sync.Mutex
	seq    int64
	acked  []seqRange
	events []clientEvent
}

// seqRange is a run of acknowledged sequence numbers, lo to hi inclusive,
// on one cluster node (from 1; 0: one server): a client's
// acknowledgements are mostly consecutive and on the same node.
type seqRange struct {
	lo, hi int64
	node   int
}

// clientEvent is one commit (class eventCommit) or failure (a dbms.Class)
// at ns after the observation's base; seq is the committed transaction's
// sequence number.
type clientEvent struct {
	at    int64
	seq   int64
	class int8
}

const eventCommit = -1

// maxEvents bounds the events kept over all clients: about 100 MB.
const maxEvents = 4 << 20

func newAckLog(clients int, cluster bool) *ackLog {
	return &ackLog{clients: make([]clientAcks, clients), perClient: max(maxEvents/max(clients, 1), 1024), cluster: cluster}
}

// next is client's next sequence number (the tag's second half).
func (a *ackLog) next(client int) int64 {
	c := &a.clients[client]
	c.mu.Lock()
	c.seq++
	q := c.seq
	c.mu.Unlock()
	return q
}

// done records the outcome of client's transaction seq (0: untagged, a
// read) on the cluster node target (0-based, driver.Session.Target):
// acknowledged when err is nil; an event while observed.
func (a *ackLog) done(client int, seq int64, target int, err error) {
	node := 0
	if a.cluster {
		node = target + 1
	}
	c := &a.clients[client]
	base := a.window.Load()
	c.mu.Lock()
	defer c.mu.Unlock()
	if err == nil && seq > 0 {
		if n := len(c.acked); n > 0 && c.acked[n-1].hi == seq-1 && c.acked[n-1].node == node {
			c.acked[n-1].hi = seq
		} else {
			c.acked = append(c.acked, seqRange{seq, seq, node})
		}
	}
	if base != 0 && len(c.events) < a.perClient {
		ev := clientEvent{at: time.Now().UnixNano() - base, seq: seq, class: eventCommit}
		if err != nil {
			ev.class = int8(dbms.Classify(err))
		}
		c.events = append(c.events, ev)
	}
}

// failedOpen records a failed attempt of client to open a session, while
// observed.
func (a *ackLog) failedOpen(client int, err error) { a.done(client, 0, 0, err) }

// open starts the observation at base; close ends it and returns every
// client's events.
func (a *ackLog) open(base time.Time) { a.window.Store(base.UnixNano()) }

func (a *ackLog) close() [][]clientEvent {
	a.window.Store(0)
	out := make([][]clientEvent, len(a.clients))
	for i := range a.clients {
		c := &a.clients[i]
		c.mu.Lock()
		out[i], c.events = c.events, nil
		c.mu.Unlock()
	}
	return out
}

// check compares the acknowledged transactions since the last check with
// the tags the history holds, and forgets them: the history is cleared
// after each check. It returns how many were acknowledged, how many of
// them are missing, and the first few of those.
func (a *ackLog) check(cycle int, tags map[int][]int64) (acked, lostN int64, lost []results.LostWrite) {
	for i := range a.clients {
		c := &a.clients[i]
		c.mu.Lock()
		ranges := c.acked
		c.acked = nil
		c.mu.Unlock()
		have := tags[i]
		sort.Slice(have, func(x, y int) bool { return have[x] < have[y] })
		for _, r := range ranges {
			acked += r.hi - r.lo + 1
			j := sort.Search(len(have), func(k int) bool { return have[k] >= r.lo })
			for q := r.lo; q <= r.hi; q++ {
				for j < len(have) && have[j] < q {
					j++
				}
				if j < len(have) && have[j] == q {
					continue
				}
				lostN++
				if len(lost) < results.MaxLostListed {
					lost = append(lost, results.LostWrite{Cycle: cycle, Client: i, Seq: q, Node: r.node})
				}
			}
		}
	}
	return acked, lostN, lost
}
