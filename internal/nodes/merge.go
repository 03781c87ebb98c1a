package nodes

import (
	"fmt"
	"slices"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/results"
)

// encode is a histogram as a report carries it (nil: none, in the closed
// loop's Response and Lag).
func encode(h *hdr.Histogram) (string, error) {
	if h == nil {
		return "", nil
	}
	b, err := h.Encode(hdr.V2CompressedEncodingCookieBase)
	return string(b), err
}

// decode reads a histogram of a report back ("" is none).
func decode(s string) (*hdr.Histogram, error) {
	if s == "" {
		return nil, nil
	}
	return hdr.Decode([]byte(s))
}

// decodeOrEmpty is decode with an empty histogram for none: a count a
// report carries always has one.
func decodeOrEmpty(s string) (*hdr.Histogram, error) {
	h, err := decode(s)
	if h == nil && err == nil {
		h = driver.NewHistogram()
	}
	return h, err
}

// newReport is an agent's cycle c as it sends it.
func newReport(name string, jobID int, c driver.CycleResult, counters map[string]int64) (*report, error) {
	r := &report{Name: name, Job: jobID, Cycle: c.Cycle, StartNS: c.Start.UnixNano(), StoppedNS: c.Stopped.UnixNano(), Counters: counters}
	for _, t := range c.Threads {
		row := threadRow{
			Thread: t.Thread, Committed: t.Committed, Failed: t.Failed, Retries: t.Retries, Late: t.Late, Reconnects: t.Reconnects,
			Errors: t.Errors[:], SumResidenceNS: int64(t.SumResidence), EffectiveNS: int64(t.Effective), Intended: t.Intended, Missed: t.Missed,
		}
		for _, tr := range t.Targets {
			h, err := encode(tr.Residence)
			if err != nil {
				return nil, err
			}
			row.Targets = append(row.Targets, targetRow{Target: tr.Target, Committed: tr.Committed, Failed: tr.Failed,
				Errors: tr.Errors[:], SumResidenceNS: int64(tr.SumResidence), Residence: h})
		}
		r.Threads = append(r.Threads, row)
	}
	var err error
	if r.Types, err = typeRows(c.Types); err != nil {
		return nil, err
	}
	if r.Residence, err = encode(c.Residence); err != nil {
		return nil, err
	}
	if r.Response, err = encode(c.Response); err != nil {
		return nil, err
	}
	r.Lag, err = encode(c.Lag)
	return r, err
}

// nodeCycle is a report turned back into the node's CycleResult, its times
// on the master's clock (the node's clock offset taken off).
func nodeCycle(r *report, node int, off time.Duration, at time.Time, d time.Duration) (*driver.CycleResult, error) {
	c := &driver.CycleResult{Cycle: r.Cycle, Start: at, End: at.Add(d), Demanded: d,
		Stopped: time.Unix(0, r.StoppedNS).Add(-off)}
	var err error
	if c.Residence, err = decodeOrEmpty(r.Residence); err != nil {
		return nil, fmt.Errorf("residence histogram: %w", err)
	}
	if c.Types, err = typeResults(r.Types); err != nil {
		return nil, err
	}
	if c.Response, err = decode(r.Response); err != nil {
		return nil, fmt.Errorf("response histogram: %w", err)
	}
	if c.Lag, err = decode(r.Lag); err != nil {
		return nil, fmt.Errorf("lag histogram: %w", err)
	}
	for _, t := range r.Threads {
		var ec driver.ErrorCounts
		copy(ec[:], t.Errors)
		th := driver.ThreadResult{Node: node, Thread: t.Thread, Committed: t.Committed, Failed: t.Failed, Retries: t.Retries,
			Late: t.Late, Reconnects: t.Reconnects, Errors: ec, SumResidence: time.Duration(t.SumResidenceNS),
			Effective: time.Duration(t.EffectiveNS), Intended: t.Intended, Missed: t.Missed}
		for _, tr := range t.Targets {
			tc := driver.TargetResult{Target: tr.Target, Committed: tr.Committed, Failed: tr.Failed, SumResidence: time.Duration(tr.SumResidenceNS)}
			copy(tc.Errors[:], tr.Errors)
			if tc.Residence, err = decodeOrEmpty(tr.Residence); err != nil {
				return nil, fmt.Errorf("residence histogram of node %d: %w", tr.Target+1, err)
			}
			th.Targets = append(th.Targets, tc)
		}
		c.AddThread(th)
	}
	return c, nil
}

// merge adds the nodes' reports of cycle i into one cycle: counts added,
// histograms added (never percentiles averaged), threads in node order.
// Each node's own cycle goes into out.PerNode. A node lost during the
// cycle (tolerated) has no report: the cycle is flagged.
func (m *Master) merge(js *jobState, i int, at time.Time, cfg driver.Config, reps map[string]*report, out *Outcome) (*driver.CycleResult, results.CycleNodes, error) {
	m.mu.Lock()
	nodes := m.nodes
	offsets := make([]time.Duration, len(nodes))
	for k, a := range nodes {
		offsets[k] = a.offset.Offset
	}
	lostIn := map[string]int{}
	for n, c := range js.lostIn {
		lostIn[n] = c
	}
	missing := slices.Clone(js.missingIn[i])
	m.mu.Unlock()
	c := &driver.CycleResult{Cycle: i, Start: at, End: at.Add(cfg.Duration), Stopped: at, Demanded: cfg.Duration, Totals: driver.NewTotals(cfg.Rate > 0)}
	cn := results.CycleNodes{Cycle: i}
	for _, name := range missing {
		// Its clients stalled (or it could not say they did not): the
		// cycle's rates are real, but not of the load asked for.
		cn.Flag = appendFlag(cn.Flag, fmt.Sprintf("agent %s missing (no heartbeat for %v or more) during the cycle", name, Missing))
	}
	var lags []float64
	for k, a := range nodes {
		name := a.info.Name
		r := reps[name]
		if r == nil {
			// Lost in this cycle: listed as lost. Lost before: no longer
			// part of the load, so not listed (a row of zeros would read
			// as a node that ran and did nothing). Either way the cycle
			// ran without it, and says so.
			switch lc, ok := lostIn[name]; {
			case !ok:
			case lc == i:
				cn.Nodes = append(cn.Nodes, results.NodeCycle{Node: k, Name: name, Lost: true})
				cn.Flag = appendFlag(cn.Flag, fmt.Sprintf("agent %s lost during the cycle: the survivors' counts only", name))
			case lc == 0:
				cn.Flag = appendFlag(cn.Flag, fmt.Sprintf("agent %s lost before %s started: the survivors' counts only", name, js.label))
			default:
				cn.Flag = appendFlag(cn.Flag, fmt.Sprintf("agent %s lost in cycle %d: the survivors' counts only", name, lc))
			}
			continue
		}
		nc, err := nodeCycle(r, k, offsets[k], at, cfg.Duration)
		if err != nil {
			return nil, cn, fmt.Errorf("agent %s, cycle %d: %w", name, i, err)
		}
		out.PerNode[k].Add(nc)
		out.CPUSeconds[k] += r.CPUSeconds
		c.Merge(nc)
		lag := float64(time.Unix(0, r.StartNS).Add(-offsets[k]).Sub(at)) / 1e6
		cn.Nodes = append(cn.Nodes, results.NodeCycle{Node: k, Name: name, Transactions: nc.Committed, Failed: nc.Failed,
			TPS: nc.TPS(), StartLagMS: lag})
		lags = append(lags, lag)
	}
	if len(lags) > 0 {
		cn.StartSpreadMS = slices.Max(lags) - slices.Min(lags)
	}
	return c, cn, nil
}

func appendFlag(flag, s string) string {
	if flag == "" {
		return s
	}
	return flag + "; " + s
}
