package results

import "time"

// FailoverBackShare is the share of the rate before a node's crash at
// which the clients' rate counts as back (Failover.BackToRateS).
const FailoverBackShare = 0.9

// Failover is what crashing a cluster node under load did, as the clients
// saw it (dsbench --fault kill-node=N@AT). Times are seconds after the
// kill unless named otherwise.
type Failover struct {
	// Node is the node crashed, numbered from 1 as --fault names it, its
	// address and its role when the run began.
	Node int    `json:"node"`
	Addr string `json:"addr"`
	Role string `json:"role"`
	// KillAt is when it was killed; AfterS how long after the scale's
	// first cycle began.
	KillAt time.Time `json:"kill_at"`
	AfterS float64   `json:"after_s"`
	// Promoted is the node promoted in its place (from 1; 0: none was
	// needed, the node was no primary) and PromotedS when the promotion
	// was done and the other standbys followed it.
	Promoted  int      `json:"promoted,omitempty"`
	PromotedS *float64 `json:"promoted_s,omitempty"`
	// RejoinStartS is when the node was started again, RejoinS how long
	// it took to be in step (a Galera node synced, a standby streaming),
	// RejoinHow how it was brought back. Absent when the load ended
	// before the node was brought back.
	RejoinStartS *float64 `json:"rejoin_start_s,omitempty"`
	RejoinS      *float64 `json:"rejoin_s,omitempty"`
	RejoinHow    string   `json:"rejoin_how,omitempty"`

	// BeforeTPS is the clients' rate over the seconds before the kill
	// (up to five).
	BeforeTPS float64 `json:"before_tps"`
	// OutageS is the longest time after the kill during which no client
	// committed anything, until the rate was back (or the observation
	// ended).
	OutageS float64 `json:"outage_s"`
	// Clients that saw the fault (an error of the connection or the
	// server after the kill), and the outage each saw: the longest time
	// between two of its commits (the first counted from the kill) in
	// which it met such an error (median and maximum over the clients
	// that came back); ClientsNotBack never committed again while
	// observed.
	ClientsAffected     int     `json:"clients_affected"`
	ClientOutageMedianS float64 `json:"client_outage_median_s,omitempty"`
	ClientOutageMaxS    float64 `json:"client_outage_max_s,omitempty"`
	ClientsNotBack      int     `json:"clients_not_back,omitempty"`
	// BackToRateS is when the rate was back to 90 % of BeforeTPS over a
	// whole second, after it first fell below (0: it never fell; absent:
	// not back while observed).
	BackToRateS *float64 `json:"back_to_rate_s,omitempty"`
	// RejoinTPS is the clients' rate while the node rejoined: what the
	// rejoin cost the others.
	RejoinTPS *float64 `json:"rejoin_tps,omitempty"`
	// Errors are the clients' failed transactions and failed attempts to
	// open a session, by class, from the kill until the rate was back
	// (or the observation ended).
	Errors map[string]int64 `json:"errors,omitempty"`
	// ObservedS is how long after the kill the clients were observed.
	ObservedS float64 `json:"observed_s"`

	// AckCheck is what became of the writes acknowledged to the clients.
	AckCheck

	// Timeline is the clients' rate and errors around the kill, for the
	// report's chart.
	Timeline FailoverTimeline `json:"timeline"`
	// Fault says what went wrong with the fault's own steps (the kill,
	// the promotion, the rejoin), if anything did.
	Fault string `json:"fault,omitempty"`
}

// AckCheck is the check of acknowledged writes (dsbench --check-acks, and
// every node fault): every writing transaction's rows carry its client's
// tag (a workload that tags, such as TPC-B's history row), and after each cycle every transaction acknowledged to a
// client is looked for. Checked says whether it ran; Acked is how many
// were acknowledged, LostAcked how many of them were missing, Lost the
// first of those.
type AckCheck struct {
	Checked   bool        `json:"checked"`
	Acked     int64       `json:"acked"`
	LostAcked int64       `json:"lost_acked"`
	Lost      []LostWrite `json:"lost,omitempty"`
}

// MaxLostListed bounds AckCheck.Lost.
const MaxLostListed = 100

// Add adds one check's acknowledged and lost writes.
func (a *AckCheck) Add(acked, lostN int64, lost []LostWrite) {
	a.Checked = true
	a.Acked += acked
	a.LostAcked += lostN
	for _, l := range lost {
		if len(a.Lost) < MaxLostListed {
			a.Lost = append(a.Lost, l)
		}
	}
}

// LostWrite is a transaction acknowledged to a client and missing from
// the history afterwards.
type LostWrite struct {
	Cycle  int   `json:"cycle"`
	Client int   `json:"client"`
	Seq    int64 `json:"seq"`
	// Node is the cluster node (from 1) the client's session was on
	// when the transaction was acknowledged; 0 on a single server.
	Node int `json:"node,omitempty"`
	// AckedS is when it was acknowledged, seconds after the kill
	// (negative: before), when observed.
	AckedS *float64 `json:"acked_s,omitempty"`
}

// FailoverTimeline is the clients' commits and errors in steps of StepS
// seconds from StartS (after the kill; negative: before), as rates per
// second.
type FailoverTimeline struct {
	StartS float64   `json:"start_s"`
	StepS  float64   `json:"step_s"`
	TPS    []float64 `json:"tps"`
	Errors []float64 `json:"errors_per_s"`
}
