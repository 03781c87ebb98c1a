package timing

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/stats"
)

// The reporting statement of seed 002 §9 (docs/ttp.md §6): two paragraphs
// that name the protocol, the machine, the measure, every deviation, the
// experiment-wide violations, the drops and the post checks.

// paragraphWidth is where the statement is wrapped.
const paragraphWidth = 78

// Paragraph is the two-paragraph statement of a protocol run.
func Paragraph(a *Analysis) string {
	return wrap(setupParagraph(a), paragraphWidth) + "\n\n" + wrap(checksParagraph(a), paragraphWidth) + "\n"
}

// Deviations lists the ways the run departed from the protocol as the
// paper specifies it, one clause each.
func Deviations(env Environment) []string {
	out := append([]string(nil), env.Notes...)
	if env.OnlineCores > 1 {
		d := fmt.Sprintf("the machine had %d online cores, where the protocol enables one", env.OnlineCores)
		if env.Affinity != "" {
			d += fmt.Sprintf(" (CPU affinity %s)", env.Affinity)
		}
		d += fmt.Sprintf("; the overall-computation and computation checks therefore allowed %d x ceil(mt/10) ticks", env.OnlineCores)
		out = append(out, d)
	}
	if env.Virtualization != "" {
		v := env.Virtualization
		if !strings.Contains(v, "virtual machine") {
			v = "virtual machine (" + v + ")"
		}
		out = append(out, "it ran in a "+strings.TrimPrefix(v, "a "))
	}
	if state, why := delayState(env.DelayAccounting); state != "on" {
		d := "delay accounting was " + state
		if why != "" {
			d += " (" + why + ")"
		}
		out = append(out, d+", so the computed time lacks the query's block-I/O delay")
	}
	if len(env.NotFlushed) > 0 {
		out = append(out, "these caches could not be flushed: "+strings.Join(env.NotFlushed, ", "))
	}
	if env.DaemonsRunning != "" {
		out = append(out, "daemons were left running: "+env.DaemonsRunning)
	}
	return out
}

// delayState splits DelayAccountingState's wording, "off (why): more", into
// the state and the rest.
func delayState(s string) (state, why string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "not recorded", ""
	}
	state, why, _ = strings.Cut(s, " ")
	why = strings.TrimSpace(why)
	if strings.HasPrefix(why, "(") {
		if i := strings.Index(why, ")"); i > 0 {
			why = why[1:i] + why[i+1:]
		}
	}
	return state, strings.TrimSpace(why)
}

func setupParagraph(a *Analysis) string {
	env := a.Env
	var b strings.Builder
	or := func(s, unknown string) string {
		if strings.TrimSpace(s) == "" {
			return unknown
		}
		return s
	}
	fmt.Fprintf(&b, "The measurements were collected using %s [S. Currim et al. 2016] on %s, running %s with the %s kernel.",
		or(env.Protocol, ProtocolVersion), or(env.Hardware, "an unrecorded machine"),
		or(env.OS, "an unrecorded operating system"), or(env.Kernel, "unrecorded"))
	queries := "the query"
	if n := distinctQueries(a); n > 1 {
		queries = fmt.Sprintf("each of the %d queries", n)
	}
	cache := "a warm cache"
	if env.CacheMode == "cold" {
		cache = "a cold cache, emptied before each execution"
	}
	fmt.Fprintf(&b, " The protocol executed %s %s at each cardinality, with %s, and provided calculated query evaluation time, including computation and I/O time, in msec",
		queries, times(env.QEsPerQaC, a), cache)
	if env.ComputedMeasure == MeasureFine {
		b.WriteString(", from the query process's CPU time and block-I/O delay as taskstats and schedstat give them (microseconds and nanoseconds); the tick-based time the paper defines is reported beside it.")
	} else {
		b.WriteString(", from the query process's clock ticks (10 msec each).")
	}
	fmt.Fprintf(&b, " Each time is the median over the retained executions, with a %.0f%% percentile bootstrap confidence interval (%d resamples) and the relative standard deviation.",
		100*ciLevel, stats.DefaultResamples)
	if n := restarted(a); n > 0 {
		fmt.Fprintf(&b, " %s restarted after a change of plan.", count(n, "Q@C was", "Q@Cs were"))
	}
	if devs := Deviations(env); len(devs) > 0 {
		fmt.Fprintf(&b, " The protocol deviated from its specification: %s.", strings.Join(devs, "; "))
	} else {
		b.WriteString(" The protocol was utilized exactly as specified.")
	}
	return b.String()
}

func checksParagraph(a *Analysis) string {
	var b strings.Builder
	if len(a.Experiment) == 0 {
		b.WriteString("No runs violated the experiment-wide sanity checks.")
	} else {
		fmt.Fprintf(&b, "The run violated the experiment-wide sanity checks: %s.", experimentSummary(a.Experiment))
	}
	fmt.Fprintf(&b, " Approximately %s%% of the QEs (%d of %d) and %s%% of the Q@Cs (%d of %d) were dropped due to QE and Q@C sanity checks",
		TwoSig(a.QEsDroppedPct), a.DroppedQEs, a.TotalQEs, TwoSig(a.QaCsDroppedPct), a.DroppedQaCs, a.TotalQaCs)
	var why []string
	if s := qeDropSummary(a); s != "" {
		why = append(why, "QEs: "+s)
	}
	if s := qacDropSummary(a); s != "" {
		why = append(why, "Q@Cs: "+s)
	}
	if len(why) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(why, "; "))
	}
	b.WriteString(".")
	p := a.Post
	retained := a.TotalQaCs - a.DroppedQaCs
	if retained == 0 {
		b.WriteString(" No Q@C was retained, so the post checks have no values.")
		return b.String()
	}
	fmt.Fprintf(&b, " As a result, excessive variation in calculated query time was observed in %s%% of the Q@Cs.",
		TwoSig(p.ExcessiveVariationPct))
	if p.Pairs > 0 {
		fmt.Fprintf(&b, " A total of %s%% of the %s of the same query and plan violated relaxed monotonicity and %s%% violated strict monotonicity.",
			TwoSig(p.RelaxedPct), count(p.Pairs, "Q@C pair", "Q@C pairs"), TwoSig(p.StrictPct))
	} else {
		b.WriteString(" Monotonicity could not be checked: no two retained Q@Cs share a query and plan.")
	}
	if p.RelDiffRetainedN > 0 {
		fmt.Fprintf(&b, " Calculated and measured time differed by %s%% (relative to measured) for the retained Q@Cs", TwoSig(p.RelDiffRetainedPct))
		if p.RelDiffDroppedN > 0 {
			fmt.Fprintf(&b, " and by %s%% for the dropped ones.", TwoSig(p.RelDiffDroppedPct))
		} else {
			b.WriteString("; no dropped Q@C could be compared.")
		}
	}
	if len(p.NonVarying) > 0 {
		fmt.Fprintf(&b, " These model measures did not vary over the retained QEs: %s.", strings.Join(p.NonVarying, ", "))
	} else {
		b.WriteString(" Every model measure varied over the retained QEs.")
	}
	return b.String()
}

// experimentSummary counts the experiment-wide violations by check.
func experimentSummary(vs []Violation) string {
	var parts []string
	for _, c := range Checks {
		if c.Scope != ScopeExperiment {
			continue
		}
		var hit []Violation
		for _, v := range vs {
			if v.Check == c.ID {
				hit = append(hit, v)
			}
		}
		switch {
		case len(hit) == 0:
		case c.ID == CheckMissingQueries || c.ID == CheckOtherQueryProcess || c.ID == CheckOtherUtilityProcess:
			parts = append(parts, hit[0].Detail)
		case c.ID == CheckUniquePlan:
			parts = append(parts, count(len(hit), "Q@C with more than one plan", "Q@Cs with more than one plan"))
		default:
			parts = append(parts, fmt.Sprintf("%s (%s)", c.Title, count(len(hit), "QE", "QEs")))
		}
	}
	return strings.Join(parts, "; ")
}

// qeDropSummary: how many QEs failed each per-QE check (a QE may fail
// several).
func qeDropSummary(a *Analysis) string {
	var parts []string
	for _, c := range Checks {
		if n := a.QECheckCounts[c.ID]; c.Scope == ScopeQE && n > 0 {
			parts = append(parts, fmt.Sprintf("%s (%d)", c.Title, n))
		}
	}
	return strings.Join(parts, ", ")
}

var dropTitles = []struct{ id, title string }{
	{DropNoQEsLeft, "no QE left"},
	{DropExcessive, "excessive variation"},
	{DropResultCache, "possible result cache"},
	{DropNoQueryProcess, "query process missing"},
	{DropTooShort, "mean measured time of 2 ticks or less"},
	{DropTooFewQEs, "fewer than 6 QEs left"},
}

// qacDropSummary: how many dropped Q@Cs each step-3 reason applies to.
func qacDropSummary(a *Analysis) string {
	var parts []string
	for _, d := range dropTitles {
		n := 0
		for _, r := range a.QaCs {
			for _, id := range r.DropReasons {
				if id == d.id {
					n++
				}
			}
		}
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s (%d)", d.title, n))
		}
	}
	return strings.Join(parts, ", ")
}

func distinctQueries(a *Analysis) int {
	seen := map[string]bool{}
	for _, r := range a.QaCs {
		seen[r.Query] = true
	}
	return len(seen)
}

func restarted(a *Analysis) int {
	n := 0
	for _, r := range a.QaCs {
		if r.Restarts > 0 {
			n++
		}
	}
	return n
}

// times words the QEs per Q@C: the configured number, else the largest
// number run.
func times(n int, a *Analysis) string {
	if n <= 0 {
		for _, r := range a.QaCs {
			n = max(n, len(r.QEs))
		}
	}
	return count(n, "time", "times")
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// TwoSig formats x to two significant digits, as seed 002 §9 asks for the
// percentages (7.2, 4.0, 0.25, 12).
func TwoSig(x float64) string {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return "0"
	}
	exp := int(math.Floor(math.Log10(math.Abs(x))))
	scale := math.Pow(10, float64(1-exp))
	r := math.Round(x*scale) / scale
	// Rounding may carry into another digit (9.96 -> 10).
	exp = int(math.Floor(math.Log10(math.Abs(r))))
	return strconv.FormatFloat(r, 'f', max(0, 1-exp), 64)
}

// wrap breaks text into lines of at most width columns at spaces (a word
// longer than width stands alone).
func wrap(text string, width int) string {
	var b strings.Builder
	col := 0
	for _, w := range strings.Fields(text) {
		n := len([]rune(w))
		switch {
		case col == 0:
		case col+1+n > width:
			b.WriteByte('\n')
			col = 0
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += n
	}
	return b.String()
}
