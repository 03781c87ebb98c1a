package orders

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/workload"
)

func configured(t *testing.T, o Options) *Workload {
	t.Helper()
	w := meta.New().(*Workload)
	raw, _ := json.Marshal(o)
	if err := w.Configure(raw); err != nil {
		t.Fatal(err)
	}
	return w
}

// The mix flag takes five percentages adding up to 100, and refuses
// anything else with a line naming the fix.
func TestMixFlag(t *testing.T) {
	if m, err := parseMix("40, 45,5,5,5"); err != nil || m != [numTypes]int{40, 45, 5, 5, 5} {
		t.Errorf("parseMix: %v, %v", m, err)
	}
	for in, want := range map[string]string{
		"45,43,4,4":      "give 5 percentages",
		"45,43,4,4,5":    "add up to 101, not 100",
		"45,43,4,4,x":    `"x" is not a percentage`,
		"145,-43,0,0,-2": "is not a percentage",
		"0,0,0,0,0":      "every weight is 0",
	} {
		if _, err := parseMix(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseMix(%q) = %v, want %q", in, err, want)
		}
	}
	// Options as the run stores them: refused the same way on an agent.
	w := meta.New().(*Workload)
	if err := w.Configure(json.RawMessage(`{"mix":[50,50,0,0,1]}`)); err == nil || !strings.Contains(err.Error(), "101") {
		t.Errorf("Configure with a mix of 101: %v", err)
	}
	if ts := configured(t, Options{Mix: [numTypes]int{40, 45, 5, 5, 5}}).Types(); ts[0].Name != "new-order" || ts[0].Weight != 40 || ts[4].Weight != 5 || ts[4].Limit.Max != 20*time.Second {
		t.Errorf("types %+v", ts)
	}
}

// The keyed mode runs ten terminals per warehouse of the largest scale
// and no open loop; without waits any load goes.
func TestCheckLoad(t *testing.T) {
	keyed := configured(t, Options{Mix: DefaultMix, Waits: true})
	if err := keyed.CheckLoad(workload.Load{Clients: 40, Scales: []int64{1, 2, 4}}); err != nil {
		t.Errorf("40 terminals for 4 warehouses: %v", err)
	}
	if err := keyed.CheckLoad(workload.Load{Clients: 8, Scales: []int64{1, 2, 4}}); err == nil || !strings.Contains(err.Error(), "give --threads 40") {
		t.Errorf("8 terminals for 4 warehouses: %v", err)
	}
	if err := keyed.CheckLoad(workload.Load{Clients: 10, Scales: []int64{1}, Rate: 5}); err == nil || !strings.Contains(err.Error(), "--rate with --waits") {
		t.Errorf("keyed with a rate: %v", err)
	}
	plain := configured(t, Options{Mix: DefaultMix})
	if err := plain.CheckLoad(workload.Load{Clients: 3, Scales: []int64{1, 2, 4}, Rate: 100}); err != nil {
		t.Errorf("no waits: %v", err)
	}
	if plain.Waits() != nil {
		t.Errorf("no waits, but Waits is set")
	}
	if plain.Variant() != "no waits" || !strings.HasPrefix(keyed.Variant(), "keyed") {
		t.Errorf("variants %q and %q", plain.Variant(), keyed.Variant())
	}
}

// Waits: a type's keying time plus a think time of the type's mean,
// never more than ten times it; over many draws the mean is the spec's.
func TestWaits(t *testing.T) {
	wait := configured(t, Options{Mix: DefaultMix, Waits: true}).Waits()
	r := rand.New(rand.NewPCG(1, 2))
	for typ := 0; typ < numTypes; typ++ {
		var sum time.Duration
		const n = 20000
		for i := 0; i < n; i++ {
			d := wait(typ, r)
			if d < keying[typ] || d > keying[typ]+10*thinkMean[typ] {
				t.Fatalf("type %d: wait %v outside %v..%v", typ, d, keying[typ], keying[typ]+10*thinkMean[typ])
			}
			sum += d - keying[typ]
		}
		mean := sum / n
		// The cap at 10x removes e^-10 of the mass: the mean is within a
		// few percent of the spec's (its standard error is 0.7 %).
		if lo, hi := thinkMean[typ]*95/100, thinkMean[typ]*105/100; mean < lo || mean > hi {
			t.Errorf("type %d: mean think %v, want about %v", typ, mean, thinkMean[typ])
		}
	}
}

// The phase at a cycle's start (type -1) is below a terminal's mean time
// between transactions under the mix (20.99 s under TPC-C's), uniform.
func TestStartPhase(t *testing.T) {
	wait := configured(t, Options{Mix: DefaultMix, Waits: true}).Waits()
	r := rand.New(rand.NewPCG(5, 6))
	const cycle = 20990 * time.Millisecond
	var sum time.Duration
	for i := 0; i < 10000; i++ {
		d := wait(-1, r)
		if d < 0 || d >= cycle {
			t.Fatalf("start phase %v outside [0, %v)", d, cycle)
		}
		sum += d
	}
	if mean := sum / 10000; mean < cycle*45/100 || mean > cycle*55/100 {
		t.Errorf("mean start phase %v, want about %v", mean, cycle/2)
	}
}

// A keyed terminal of a warehouse the scale lacks is idle; the others
// are bound ten to a warehouse.
func TestTerminals(t *testing.T) {
	w := configured(t, Options{Mix: DefaultMix, Waits: true})
	for c, idle := range map[int]bool{0: false, 19: false, 20: true, 39: true} {
		term := w.NewClient(workload.ClientConfig{Client: c, Clients: 40, Scale: 2}).(*terminal)
		if term.idle != idle {
			t.Errorf("terminal %d at 2 warehouses: idle %v, want %v", c, term.idle, idle)
		}
		if !idle && term.c.wLo != int64(c/10+1) {
			t.Errorf("terminal %d: home warehouse %d, want %d", c, term.c.wLo, c/10+1)
		}
	}
	if _, err := w.NewClient(workload.ClientConfig{Client: 39, Clients: 40, Scale: 2}).Run(nil, &workload.Session{}); err != workload.ErrIdle {
		t.Errorf("an idle terminal's Run: %v, want workload.ErrIdle", err)
	}
}
