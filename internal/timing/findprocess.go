package timing

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// FindQueryProcess names the process (and thread) e's statements run in:
// the one the engine names (dbms.ProcessReporter), else the process on
// this machine listening on rawURL's port; dbgauge's own for an embedded
// engine. How says where the answer came from, clauses separated by "; ".
func FindQueryProcess(ctx context.Context, e dbms.Engine, rawURL string) (QueryProcess, error) {
	pr, ok := e.(dbms.ProcessReporter)
	if !ok {
		return QueryProcess{}, fmt.Errorf("%s cannot name its query process", e.Name())
	}
	p, err := pr.QueryProcess(ctx)
	if err != nil {
		return QueryProcess{}, fmt.Errorf("find the query process: %w", err)
	}
	qp := QueryProcess{PID: p.PID, TID: p.TID, Embedded: p.Embedded, How: p.How}
	if qp.Embedded {
		qp.PID = os.Getpid()
		return qp, nil
	}
	if qp.PID == 0 {
		u, err := dbms.ParseURL(rawURL)
		if err != nil {
			return QueryProcess{}, err
		}
		port, _ := strconv.Atoi(u.Port)
		if qp.PID, err = ListenerPID(port); err != nil || qp.PID == 0 {
			return QueryProcess{}, fmt.Errorf("find the query process: %s does not say and no local process listens on port %d (the server must be on this machine)", e.Name(), port)
		}
		if qp.How != "" {
			qp.How += "; "
		}
		qp.How += "the process listening on port " + u.Port
	}
	return qp, nil
}

// ServerRoot climbs from a server's process up through its parents while
// they are the same database program (a PostgreSQL backend's postmaster),
// at most depth levels: the root of the server's process tree.
func ServerRoot(pid, depth int) (ProcSample, error) {
	root, err := ReadProcess(pid)
	if err != nil {
		return root, err
	}
	engine, _ := DBMSOf(root.Comm)
	for range depth {
		parent, err := ReadProcess(root.PPID)
		if err != nil {
			break
		}
		if d, helper := DBMSOf(parent.Comm); d != engine || helper {
			break
		}
		root = parent
	}
	return root, nil
}
