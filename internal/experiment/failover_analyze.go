package experiment

import (
	"sort"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/driver"
	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// observation is what the clients saw around a node's crash: every
// client's commits and failures, in ns after the observation's base, and
// the fault's steps at the same scale (-1: not reached).
type observation struct {
	events                            [][]clientEvent
	kill, end, rejoinStart, rejoinEnd int64
}

// timelineStep is the timeline's resolution.
const timelineStep = int64(100 * time.Millisecond)

// figures fills in what the clients saw: the rate before, the outage, the
// clients' own outages, the time back to the rate, the errors meanwhile,
// the rate while the node rejoined, and the timeline.
func (o observation) figures(f *results.Failover) {
	// Steps of the timeline start on a step boundary before the kill, so
	// that the kill is where a step starts.
	pre := o.kill / timelineStep * timelineStep
	from := o.kill - pre
	nb := int((o.end-from)/timelineStep) + 1
	if o.end < o.kill {
		nb = int(pre / timelineStep)
	}
	commits := make([]int64, max(nb, 0))
	errs := make([]int64, max(nb, 0))
	var times []int64
	for _, evs := range o.events {
		for _, ev := range evs {
			b := int((ev.at - from) / timelineStep)
			if ev.at < from || b >= nb {
				continue
			}
			if ev.class == eventCommit {
				commits[b]++
				times = append(times, ev.at)
			} else {
				errs[b]++
			}
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	f.ObservedS = float64(o.end-o.kill) / 1e9
	if before := o.kill - max(o.kill-int64(observeBefore), 0); before > 0 {
		f.BeforeTPS = float64(countIn(times, o.kill-before, o.kill)) / (float64(before) / 1e9)
	}

	// Back to rate: the first whole second at 90 % of the rate before,
	// after the first second below it.
	kb := int(pre / timelineStep)
	win := int(int64(time.Second) / timelineStep)
	rate := func(b int) float64 {
		var n int64
		for _, c := range commits[b : b+win] {
			n += c
		}
		return float64(n)
	}
	recovered := o.end
	if f.BeforeTPS > 0 {
		want := results.FailoverBackShare * f.BeforeTPS
		dip := -1
		for b := kb; b+win <= nb; b++ {
			if rate(b) < want {
				dip = b
				break
			}
		}
		switch {
		case dip < 0:
			zero := 0.0
			f.BackToRateS, recovered = &zero, o.kill
		default:
			for b := dip + 1; b+win <= nb; b++ {
				if rate(b) >= want {
					s := float64(int64(b+win-kb)*timelineStep) / 1e9
					f.BackToRateS = &s
					recovered = o.kill + int64(s*1e9)
					break
				}
			}
		}
	}

	// The outage: the longest time without a commit, from the kill until
	// the rate was back.
	last := o.kill
	var outage int64
	for _, t := range times {
		if t <= o.kill {
			continue
		}
		if t > recovered {
			break
		}
		outage = max(outage, t-last)
		last = t
	}
	f.OutageS = float64(max(outage, recovered-last)) / 1e9

	// Each client's outage: the longest time between two of its commits
	// (the first from the kill) in which it met a fault of the
	// connection or the server; a conflict is the load's own. And the
	// errors until the rate was back.
	var counts driver.ErrorCounts
	var outages []float64
	for _, evs := range o.events {
		last, faulted, affected := o.kill, false, false
		var worst float64
		for _, ev := range evs {
			if ev.at < o.kill {
				continue
			}
			if ev.class != eventCommit {
				c := dbms.Class(ev.class)
				if ev.at <= recovered {
					counts[c]++
				}
				if c.Transient() {
					faulted, affected = true, true
				}
				continue
			}
			if faulted {
				worst = max(worst, float64(ev.at-last)/1e9)
			}
			last, faulted = ev.at, false
		}
		if !affected {
			continue
		}
		f.ClientsAffected++
		if faulted {
			f.ClientsNotBack++
			continue
		}
		outages = append(outages, worst)
	}
	f.Errors = counts.Map()
	if len(outages) > 0 {
		f.ClientOutageMedianS = stats.Median(outages)
		sort.Float64s(outages)
		f.ClientOutageMaxS = outages[len(outages)-1]
	}

	if o.rejoinStart >= 0 && o.rejoinEnd > o.rejoinStart {
		r := float64(countIn(times, o.rejoinStart, o.rejoinEnd)) / (float64(o.rejoinEnd-o.rejoinStart) / 1e9)
		f.RejoinTPS = &r
	}

	step := float64(timelineStep) / 1e9
	f.Timeline = results.FailoverTimeline{StartS: -float64(pre) / 1e9, StepS: step,
		TPS: make([]float64, len(commits)), Errors: make([]float64, len(errs))}
	for i := range commits {
		f.Timeline.TPS[i] = float64(commits[i]) / step
		f.Timeline.Errors[i] = float64(errs[i]) / step
	}
}

// countIn counts the sorted times in [from, to).
func countIn(times []int64, from, to int64) int {
	i := sort.Search(len(times), func(k int) bool { return times[k] >= from })
	j := sort.Search(len(times), func(k int) bool { return times[k] >= to })
	return j - i
}

// ackedAt is when client's transaction seq was acknowledged, seconds
// after the kill, if it was observed.
func (o observation) ackedAt(client int, seq int64) (float64, bool) {
	if client < 0 || client >= len(o.events) {
		return 0, false
	}
	for _, ev := range o.events[client] {
		if ev.class == eventCommit && ev.seq == seq {
			return float64(ev.at-o.kill) / 1e9, true
		}
	}
	return 0, false
}
