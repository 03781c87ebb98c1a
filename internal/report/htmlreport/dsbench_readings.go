package htmlreport

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// The one-line readings of the sweep's diagrams, each computed from the
// numbers the diagram draws.

// rateReading follows the median rate along the scales: where it starts,
// where it peaks, where it ends.
func rateReading(s []results.ScaleResult) string {
	if len(s) == 0 {
		return ""
	}
	first, last := s[0], s[len(s)-1]
	if len(s) == 1 {
		return fmt.Sprintf("One scale: the median rate at scale %d is %s tps (cycles from %s to %s tps).",
			first.Scale, num(first.MedianTPS), num(first.MinTPS), num(first.MaxTPS))
	}
	p := peakScale(s)
	peak := s[p]
	tps := func(x results.ScaleResult) string {
		return fmt.Sprintf("%s tps at scale %d", num(x.MedianTPS), x.Scale)
	}
	switch {
	case p == 0:
		return fmt.Sprintf("The median rate is highest at the smallest scale, %s, and %s %s.", tps(peak), fallsTo(peak, last), tps(last))
	case p == len(s)-1:
		return fmt.Sprintf("The median rate rises from %s to its peak at the largest scale, %s.", tps(first), tps(peak))
	}
	return fmt.Sprintf("The median rate rises from %s to a peak of %s, then %s %s.", tps(first), tps(peak), fallsTo(peak, last), tps(last))
}

// fallsTo is the verb from the peak to the last scale: the peak is the
// first of equal highest rates, so the last may equal it.
func fallsTo(peak, last results.ScaleResult) string {
	if last.MedianTPS < peak.MedianTPS {
		return "falls to"
	}
	return "ends at"
}

// cycleReading names the scale whose cycle rates spread the most.
func cycleReading(s []results.ScaleResult) string {
	worst, spread := -1, -1.0
	for i, x := range s {
		if len(x.Cycles) < 2 || x.MedianTPS <= 0 {
			continue
		}
		lo, hi := slices.Min(x.Cycles), slices.Max(x.Cycles)
		if d := (hi - lo) / x.MedianTPS; d > spread {
			worst, spread = i, d
		}
	}
	if worst < 0 {
		return "Each scale ran one cycle (or none committed), so there is no spread between cycles to read."
	}
	x := s[worst]
	what := "Cycle rates spread the most"
	if len(s) == 1 {
		what = "Cycle rates spread"
	}
	return fmt.Sprintf("%s at scale %d: from %s to %s tps over %d cycles, %s%% of its median rate.",
		what, x.Scale, num(slices.Min(x.Cycles)), num(slices.Max(x.Cycles)), len(x.Cycles), pct(100*spread))
}

// residenceQuantile is the q-quantile of a scale's residence times in ms;
// NaN when the run stored none.
func residenceQuantile(x results.ScaleResult, q float64) float64 {
	pts := make([]stats.QuantilePoint, len(x.Residence))
	for i, p := range x.Residence {
		pts[i] = stats.QuantilePoint(p)
	}
	return stats.QuantileFromPoints(pts, q) / 1000
}

// freqReading gives the median and 99th percentile residence times at the
// smallest and largest scale.
func freqReading(s []results.ScaleResult) string {
	var with []results.ScaleResult
	for _, x := range s {
		if len(x.Residence) > 0 {
			with = append(with, x)
		}
	}
	if len(with) == 0 {
		return ""
	}
	a, b := with[0], with[len(with)-1]
	if len(with) == 1 {
		return fmt.Sprintf("At scale %d half of the transactions take under %s ms and 99%% under %s ms.",
			a.Scale, num(residenceQuantile(a, 0.5)), num(residenceQuantile(a, 0.99)))
	}
	return fmt.Sprintf("From scale %d to scale %d the median residence time goes from %s to %s ms and the 99th percentile from %s to %s ms.",
		a.Scale, b.Scale, num(residenceQuantile(a, 0.5)), num(residenceQuantile(b, 0.5)), num(residenceQuantile(a, 0.99)), num(residenceQuantile(b, 0.99)))
}

// confReading compares, at the peak scale, the rate at the highest
// confidence level up to 99% with the median rate.
func confReading(r *results.DSBenchResults, s []results.ScaleResult) string {
	if len(s) == 0 {
		return ""
	}
	level := math.NaN()
	for _, l := range r.Confidence {
		if l <= 99 && (math.IsNaN(level) || l > level) {
			level = l
		}
	}
	if math.IsNaN(level) {
		return ""
	}
	peak := s[peakScale(s)]
	v, ok := peak.ConfidenceTPS[stats.LevelKey(level)]
	if !ok || peak.MedianTPS <= 0 {
		return ""
	}
	return fmt.Sprintf("At scale %d, the peak of the median rate, the rate at the %s%% confidence level is %s tps, %s%% of the median rate (%s tps).",
		peak.Scale, stats.LevelKey(level), num(v), pct(100*v/peak.MedianTPS), num(peak.MedianTPS))
}

// cpuReading says who used the machine's CPU at the scale where the client
// used the most of it: the client's, the server's and the machine's busy
// share (the table's notes say what the server's CPU counts, or why it is
// unknown); "" when the run recorded no shares (a run from before them).
func cpuReading(s []results.ScaleResult) string {
	top := -1
	for i, x := range s {
		if x.ClientCPUShare != nil && (top < 0 || *x.ClientCPUShare > *s[top].ClientCPUShare) {
			top = i
		}
	}
	if top < 0 {
		return ""
	}
	x := s[top]
	share := func(v *float64) string {
		if v == nil {
			return "an unknown share"
		}
		return pct(100*(*v)) + "%"
	}
	where := "at scale " + strconv.FormatInt(x.Scale, 10)
	if len(s) > 1 {
		where = "at most (at scale " + strconv.FormatInt(x.Scale, 10) + ")"
	}
	out := fmt.Sprintf("Over the cycles the client used %s of the machine's CPU %s, the server %s, and the machine was %s busy",
		share(x.ClientCPUShare), where, share(x.ServerCPUShare), share(x.MachineCPUShare))
	if x.ClientCPUPerTxUS != nil {
		out += fmt.Sprintf("; the client spent %s µs of CPU per transaction", num(*x.ClientCPUPerTxUS))
	}
	return out + "."
}

// faultsReading is the line above the faults table: what the sweep did
// about them.
func faultsReading(ds *results.DSBenchResults) string {
	if ds.BackoffCapS > 0 {
		return fmt.Sprintf("Cycles in which clients lost or could not open their connections (a server restarting, stopped or full). The clients retried after a backoff capped at %g s and would have given up after %g s; a cycle with faults is kept, and its rate counts what committed around them. A commit in doubt was lost with its connection and may have been applied; the consistency check allows for it.", ds.BackoffCapS, ds.GiveUpS)
	}
	return "Cycles in which clients lost their connections and replaced them."
}

// failoverReading says how the failover's figures were taken.
func failoverReading(ds *results.DSBenchResults) string {
	var b strings.Builder
	b.WriteString("One node of the cluster was killed (SIGKILL to its server and every process it started) while the clients ran; a crashed primary's place went at once to the standby that had received the most WAL, as a failover manager would do it, and the node was brought back later. ")
	fmt.Fprintf(&b, "The outage is the longest time after the kill in which no client committed anything, until the rate was back at %.0f %% of its mean over the seconds before the kill for a whole second; each client's own outage is the longest time between two of its commits in which it met a fault of the connection or the server. ", 100*results.FailoverBackShare)
	fmt.Fprintf(&b, "Every %s transaction wrote its client's tag with its rows, and after each cycle every transaction acknowledged to a client was looked for: a lost write was acknowledged and is not there. With a synchronous standby none may be lost; after an asynchronous promotion, the commits the new primary had not received are.", ds.WorkloadTitle())
	for _, s := range ds.Scales {
		if f := s.Failover; f != nil {
			fmt.Fprintf(&b, " Scale %d: %s.", s.Scale, report.FailoverLine(f))
		}
	}
	return b.String()
}

// acksReading says how --check-acks checked the acknowledged writes.
func acksReading(ds *results.DSBenchResults) string {
	return fmt.Sprintf("Every %s transaction wrote its client's tag (client, sequence number) with its rows, and after each cycle every transaction acknowledged to a client was looked for in the database, read by a session whose reads wait for what every node committed. A lost write was acknowledged and is not there; each is named by its cycle, client, sequence number and the node the client's session was on.", ds.WorkloadTitle())
}

// clusterReading says what the per-node table counts.
func clusterReading(ds *results.DSBenchResults) string {
	return report.ClusterLine(ds) + ". Every committed transaction and every failed trial is counted for the node its session was on; the nodes' counts add up to the scale's. Roles are as each node said when the run began (read-only: a hot standby)."
}

// clusterMeasuresReading says where the measures come from.
const clusterMeasuresReading = "Each node's replication measures, read once a second while the cycles ran (cluster.log holds every sample): counters as their increase over the scale (Galera: local_cert_failures, local transactions that lost certification to another node's; local_bf_aborts, aborted by an applied write set; flow_control_paused_ns; a standby: conflicts, queries its WAL replay cancelled), levels as mean and maximum (a primary's write, flush and replay lag per standby in seconds and replay_behind_bytes; Galera's local_recv_queue and cluster_size). A node that could not be read in a second (down, restarting) counts as unreadable."
