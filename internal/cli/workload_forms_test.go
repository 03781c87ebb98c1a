package cli

import (
	"slices"
	"testing"

	"github.com/dbgauge/dbgauge/internal/ui"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// The run forms of the load commands offer every registered workload,
// under both names of the choice, from the registry.
func TestFormsOfferTheWorkloads(t *testing.T) {
	want := workload.Names()
	if len(want) < 2 {
		t.Fatalf("registered workloads %v: the tests import internal/workload/all", want)
	}
	for _, cmd := range []string{"dsbench", "clustersize"} {
		e := describe(cmd)
		for _, name := range []string{"workload", "mode"} {
			i := slices.IndexFunc(e.Flags, func(f ui.Flag) bool { return f.Name == name })
			if i < 0 {
				t.Errorf("%s's form has no %s field", cmd, name)
				continue
			}
			f := e.Flags[i]
			if f.Kind != ui.KindChoice || !slices.Equal(f.Choices, want) || f.Default != workload.Default() {
				t.Errorf("%s's %s field: kind %s, choices %v, default %q: want a choice of %v, default %q", cmd, name, f.Kind, f.Choices, f.Default, want, workload.Default())
			}
		}
	}
}
