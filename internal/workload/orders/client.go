package orders

import (
	"context"
	"errors"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// NewClient is one driver thread's terminal (workload.Workload): the
// transactions' Client with the run's constants and mix, wrapped so that
// the driver sees what the sweep needs (terminal).
func (w *Workload) NewClient(cfg workload.ClientConfig) workload.Client {
	wh := max(cfg.Scale, 1)
	t := &terminal{}
	if w.opts.Waits {
		// Ten terminals per warehouse, numbered by warehouse: those of a
		// warehouse this scale lacks have nothing to run.
		if int64(cfg.Client) >= terminalsPerWarehouse*wh {
			t.idle = true
			return t
		}
		cfg.Clients = int(terminalsPerWarehouse * wh)
	}
	t.c = NewClient(cfg, ClientOptions{C: RunConstants(cfg.Seed, LoadC(DataSeed)), Mix: w.opts.Mix, TimeStatements: true})
	return t
}

// terminal is a Client as the sweep runs it: a New-Order rolled back by
// design (its unused item) is a completed transaction of its type, not a
// failure to retry; what the attempt's inputs were goes to the session's
// counts (workload.Counter); a keyed terminal of a warehouse the scale
// lacks is idle.
type terminal struct {
	c    *Client
	idle bool
}

func (t *terminal) Setup(ctx context.Context, tx dbms.Transactor) error {
	if t.idle {
		return nil
	}
	return t.c.Setup(ctx, tx)
}

func (t *terminal) Run(ctx context.Context, s *workload.Session) (int, error) {
	if t.idle {
		return 0, workload.ErrIdle
	}
	typ, err := t.c.Run(ctx, s)
	rolledBack := errors.Is(err, ErrRollback)
	if (err == nil || rolledBack) && s.Counts != nil {
		addCounts(s.Counts, t.c.pending)
	}
	if rolledBack {
		return typ, nil
	}
	return typ, err
}

// addCounts adds one completed transaction's audit counts to counts (in
// CountNames' order).
func addCounts(counts []int64, a Audit) {
	counts[cntRollbacks] += a.Rollbacks
	counts[cntLines] += a.Lines
	counts[cntRemoteLines] += a.RemoteLines
	counts[cntRemotePayments] += a.RemotePayments
	counts[cntPaymentsByName] += a.PaymentsByName
	counts[cntStatusByName] += a.OrderStatusesByName
	counts[cntDeliveredDistricts] += DistrictsPerWarehouse*a.Deliveries - a.SkippedDistricts
	counts[cntSkippedDeliveries] += a.SkippedDistricts
}
