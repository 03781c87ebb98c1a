package experiment

import (
	"errors"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/workload/tpcb"
)

// TestAckLogCheck: the transactions acknowledged to a client and missing
// from the history are found by their tags, whatever else the history
// holds (a commit in doubt that was applied, a duplicate); the log
// starts again after each check. Each lost one names the node it was
// acknowledged on (client 0 moves from node 1 to node 2 after its failed
// transaction).
func TestAckLogCheck(t *testing.T) {
	a := newAckLog(2, true)
	var tags []string
	for i := 0; i < 6; i++ {
		seq := a.next(0)
		tags = append(tags, tpcb.Tag(0, seq))
		var err error
		target := 0
		if seq == 3 {
			err = errors.New("deadlock") // failed: not acknowledged
		}
		if seq >= 3 {
			target = 1
		}
		a.done(0, seq, target, err)
	}
	seq := a.next(1)
	a.done(1, seq, 2, nil)
	history := map[int][]int64{}
	for _, tag := range append(tags, tpcb.Tag(0, 2), tpcb.Tag(1, 7)) {
		c, q, ok := tpcb.ParseTag(tag)
		if !ok {
			t.Fatalf("tag %q does not parse", tag)
		}
		if q != 5 { // transaction 5 of client 0 is lost
			history[c] = append(history[c], q)
		}
	}
	acked, lostN, lost := a.check(1, history)
	want := []results.LostWrite{{Cycle: 1, Client: 0, Seq: 5, Node: 2}, {Cycle: 1, Client: 1, Seq: 1, Node: 3}}
	if acked != 6 || lostN != 2 || len(lost) != 2 || lost[0] != want[0] || lost[1] != want[1] {
		t.Errorf("acked %d, lost %d %+v: want 6 acknowledged (5 of client 0, 1 of client 1), %+v lost", acked, lostN, lost, want)
	}
	if acked, lostN, _ := a.check(2, nil); acked != 0 || lostN != 0 {
		t.Errorf("second check: %d acknowledged, %d lost: want the log started again", acked, lostN)
	}
	if _, _, ok := tpcb.ParseTag(tpcb.HistoryFiller); ok {
		t.Errorf("the untagged filler %q parses as a tag", tpcb.HistoryFiller)
	}
}

// TestObservationFigures: a load of 100 commits a second on two clients,
// one of which loses its node at the kill and commits again 2 s later
// (after 3 failed attempts), the other unaffected.
func TestObservationFigures(t *testing.T) {
	sec := int64(time.Second)
	kill := 5 * sec
	lostConn := dbms.Wrap(dbms.ConnectionLost, errors.New("gone"))
	var o observation
	o.kill, o.end, o.rejoinStart, o.rejoinEnd = kill, 15*sec, 8*sec, 10*sec
	o.events = make([][]clientEvent, 2)
	for c := range 2 {
		var seq int64
		for at := int64(0); at < o.end; at += 20 * int64(time.Millisecond) {
			if c == 0 && at >= kill && at < kill+2*sec {
				if at%(500*int64(time.Millisecond)) == 0 {
					o.events[c] = append(o.events[c], clientEvent{at: at, class: int8(dbms.Classify(lostConn))})
				}
				continue
			}
			seq++
			o.events[c] = append(o.events[c], clientEvent{at: at, seq: seq, class: eventCommit})
		}
	}
	var f results.Failover
	o.figures(&f)
	if f.BeforeTPS != 100 {
		t.Errorf("before: %.1f tps, want 100", f.BeforeTPS)
	}
	if f.ClientsAffected != 1 || f.ClientsNotBack != 0 || f.ClientOutageMaxS != 2 {
		t.Errorf("%d clients affected (%d not back), outage max %.2f s: want 1, back after 2 s", f.ClientsAffected, f.ClientsNotBack, f.ClientOutageMaxS)
	}
	// The other client kept committing: no second without a commit.
	if f.OutageS > 0.021 {
		t.Errorf("outage %.3f s: want no more than the gap between two commits", f.OutageS)
	}
	// The rate fell to half at the kill and was back once a whole second
	// after the outage reached 90 %.
	if f.BackToRateS == nil || *f.BackToRateS < 2 || *f.BackToRateS > 3.01 {
		t.Errorf("back to rate after %v s: want between 2 and 3", f.BackToRateS)
	}
	if f.Errors["connection_lost"] != 4 {
		t.Errorf("errors %v: want 4 lost connections", f.Errors)
	}
	if f.RejoinTPS == nil || *f.RejoinTPS != 100 {
		t.Errorf("rate while rejoining %v: want 100", f.RejoinTPS)
	}
	if f.ObservedS != 10 || f.Timeline.StartS != -5 || f.Timeline.StepS != 0.1 || len(f.Timeline.TPS) != 151 {
		t.Errorf("observed %.1f s, timeline from %.1f s in steps of %.1f s, %d steps", f.ObservedS, f.Timeline.StartS, f.Timeline.StepS, len(f.Timeline.TPS))
	}
	if at, ok := o.ackedAt(1, 251); !ok || at != 0 {
		t.Errorf("client 1's transaction 251 acknowledged at %v (%v): want at the kill", at, ok)
	}
}
