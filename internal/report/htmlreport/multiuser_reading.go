package htmlreport

import (
	"fmt"
	"sort"

	"github.com/dbgauge/dbgauge/internal/results"
)

// plateau is how far below the peak a thruput may lie and still count as
// holding it: repeated millisecond runs on a shared machine spread about
// this much, so a smaller dip is not read as a fall.
const plateau = 0.10

// multiuserReading is the thruput diagram's one line: where thruput peaks
// against the ideal, what it does after the peak (holds, falls, or had not
// stopped rising), and the peak's user count against the machine's CPUs.
// Every number comes from the points; the wording follows their shape.
func multiuserReading(m *results.MultiuserResults) string {
	type pt struct {
		u  int
		th float64
	}
	var pts []pt
	for _, p := range m.Points {
		if p.Thruput != nil && p.Users > 0 {
			pts = append(pts, pt{p.Users, *p.Thruput})
		}
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].u < pts[j].u })
	switch len(pts) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("Only %d user has a thruput: there is no curve to read.", pts[0].u)
	}
	peakI := 0
	for i, p := range pts {
		if p.th > pts[peakI].th {
			peakI = i
		}
	}
	peak, last := pts[peakI], pts[len(pts)-1]
	risingTo := func(k int) bool {
		for i := 1; i <= k; i++ {
			if pts[i].th < pts[i-1].th {
				return false
			}
		}
		return true
	}
	ofIdeal := func(p pt) string { return fmt.Sprintf("%s of the ideal %d", pctText(p.th/float64(p.u)), p.u) }
	th := func(v float64) string { return num(v) }

	if peakI == 0 {
		s := fmt.Sprintf("No user count beats the thruput of %s: at %d users it is %s", countNoun(peak.u, "user", "users"), last.u, th(last.th))
		if peak.u == 1 && last.th < 1 {
			return s + fmt.Sprintf(", so %d users together take longer than %d one-user scripts run one after another.", last.u, last.u)
		}
		return s + " (" + ofIdeal(last) + ")."
	}
	var s string
	if peakI == len(pts)-1 {
		prev := pts[peakI-1]
		if risingTo(peakI) {
			s = fmt.Sprintf("Thruput rises with every user count to %s at %d users, the largest count (%s)", th(peak.th), peak.u, ofIdeal(peak))
		} else {
			s = fmt.Sprintf("Thruput is highest at the largest count, %d users: %s (%s)", peak.u, th(peak.th), ofIdeal(peak))
		}
		if gain := peak.th/prev.th - 1; gain < plateau {
			s += fmt.Sprintf(", only %s above %s at %d users: it is levelling off.", pctText(gain), th(prev.th), prev.u)
		} else {
			s += fmt.Sprintf(", %s above %s at %d users: it was still rising where the user counts end.", pctText(gain), th(prev.th), prev.u)
		}
	} else {
		verb := "peaks at"
		if risingTo(peakI) {
			verb = "grows to"
		}
		s = fmt.Sprintf("Thruput %s %s at %d users (%s)", verb, th(peak.th), peak.u, ofIdeal(peak))
		hold := peakI
		for hold+1 < len(pts) && pts[hold+1].th >= (1-plateau)*peak.th {
			hold++
		}
		switch fall := pts[min(hold+1, len(pts)-1)]; {
		case hold == len(pts)-1:
			s += fmt.Sprintf(" and stays within 10%% of it up to %d users (%s there): users beyond %d add no thruput.", last.u, th(last.th), peak.u)
		case hold > peakI && fall == last:
			s += fmt.Sprintf(", stays within 10%% of it up to %d users, then falls to %s at %d (%s below the peak).", pts[hold].u, th(last.th), last.u, pctText(1-last.th/peak.th))
		case hold > peakI:
			s += fmt.Sprintf(", stays within 10%% of it up to %d users, then falls to %s at %d; at %d users it is %s.", pts[hold].u, th(fall.th), fall.u, last.u, th(last.th))
		case fall == last:
			s += fmt.Sprintf(" and falls to %s at %d users (%s below the peak).", th(last.th), last.u, pctText(1-last.th/peak.th))
		default:
			s += fmt.Sprintf(", then falls to %s at %d users; at %d users it is %s.", th(fall.th), fall.u, last.u, th(last.th))
		}
	}
	switch c := m.CPUs; {
	case c <= 0:
	case peak.u == c:
		s += fmt.Sprintf(" The peak is at as many users as the machine has CPUs (%d).", c)
	case peak.u > c:
		s += fmt.Sprintf(" The peak is at more users (%d) than the machine has CPUs (%d).", peak.u, c)
	default:
		s += fmt.Sprintf(" The peak is at fewer users (%d) than the machine has CPUs (%d).", peak.u, c)
	}
	return s
}
