package orders

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// Options are the workload's options as a run stores them and sends them
// to its agents.
type Options struct {
	// Mix is the percentage of each transaction type, in Types' order;
	// they add up to 100.
	Mix [numTypes]int `json:"mix"`
	// Waits is the keyed mode: the spec's keying and think times, ten
	// terminals per warehouse.
	Waits bool `json:"waits,omitempty"`
	// CheckAll checks all twelve consistency conditions after every cycle
	// (not only 1-4).
	CheckAll bool `json:"check_all,omitempty"`
}

// flagValues are the workload's flags as the command line set them.
type flagValues struct {
	mix      string
	waits    bool
	checkAll bool
}

// Flags binds the workload's flags on a sweep's command.
func (w *Workload) Flags(fs *pflag.FlagSet) {
	f := &w.flags
	fs.StringVar(&f.mix, "mix", "45,43,4,4,4", "with --workload orders: the percentages of New-Order, Payment, Order-Status, Delivery and Stock-Level, adding up to 100 (TPC-C's is the default)")
	fs.BoolVar(&f.waits, "waits", false, "with --workload orders: the keyed mode: TPC-C's keying and think times, 10 terminals per warehouse (--threads x --nodes = 10 x the largest of --scales), where the efficiency against 12.86 new orders per minute per warehouse means something; without it no terminal waits (what users run to load a server)")
	fs.BoolVar(&f.checkAll, "check-all", false, "with --workload orders: check all twelve consistency conditions after every cycle, not only 1-4 (all twelve are checked at the end of each scale anyway)")
}

// Options reads the flags: the options of Configure.
func (w *Workload) Options() (json.RawMessage, error) {
	f := &w.flags
	mix, err := parseMix(f.mix)
	if err != nil {
		return nil, fmt.Errorf("--mix %s: %w", f.mix, err)
	}
	return json.Marshal(Options{Mix: mix, Waits: f.waits, CheckAll: f.checkAll})
}

// parseMix reads five percentages that add up to 100.
func parseMix(s string) ([numTypes]int, error) {
	var mix [numTypes]int
	parts := strings.Split(s, ",")
	if len(parts) != numTypes {
		return mix, fmt.Errorf("give %d percentages (New-Order, Payment, Order-Status, Delivery, Stock-Level), e.g. 45,43,4,4,4", numTypes)
	}
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || v < 0 || v > 100 {
			return mix, fmt.Errorf("%q is not a percentage from 0 to 100", p)
		}
		mix[i] = v
	}
	return mix, percentages(mix)
}

// percentages holds a mix to percentages: they add up to 100.
func percentages(mix [numTypes]int) error {
	if err := CheckMix(mix); err != nil {
		return err
	}
	sum := 0
	for _, v := range mix {
		sum += v
	}
	if sum != 100 {
		return fmt.Errorf("the percentages add up to %d, not 100", sum)
	}
	return nil
}

// Configure takes the run's options (workload.Configurable).
func (w *Workload) Configure(raw json.RawMessage) error {
	o := Options{Mix: DefaultMix}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return fmt.Errorf("options: %w", err)
	}
	if err := percentages(o.Mix); err != nil {
		return fmt.Errorf("mix %v: %w", o.Mix, err)
	}
	w.opts = o
	return nil
}
