package results

import (
	"strings"
	"sync/atomic"
)

// WorkloadInfo is what a load run's results say of its workload (the
// registered one its "mode" names), so that the reports, the comparison
// and the catalog describe it without knowing any workload.
type WorkloadInfo struct {
	// Title names the workload for a reader ("TPC-B").
	Title string `json:"title"`
	// Description is its one line.
	Description string `json:"description,omitempty"`
	// Writes says whether its transactions write.
	Writes bool `json:"writes"`
	// Types are its transaction types, in the order the per-type figures
	// use, with their weights.
	Types []WorkloadType `json:"types,omitempty"`
	// Variant says which of the workload's modes ran, where it has
	// several that measure different things ("no waits", "keyed: ...").
	Variant string `json:"variant,omitempty"`
}

// WorkloadType is one transaction type of a workload.
type WorkloadType struct {
	Name   string `json:"name"`
	Weight int    `json:"weight"`
}

// titler names a registered workload: what a run stored before results
// said what its workload is gets its title from the workload of that name
// today. The command sets it (SetTitler), since results must not know the
// workloads; without it such a run is named by its mode in capitals.
var titler atomic.Pointer[func(name string) string]

// SetTitler makes f name the registered workloads (f returns "" for a
// name it does not know).
func SetTitler(f func(name string) string) { titler.Store(&f) }

// WorkloadTitle names a run's workload for a reader: the title it
// stored, else the title its registered workload has (SetTitler), else
// its mode in capitals.
func WorkloadTitle(mode string, info *WorkloadInfo) string {
	if info != nil && info.Title != "" {
		if info.Variant != "" {
			return info.Title + ", " + info.Variant
		}
		return info.Title
	}
	if f := titler.Load(); f != nil {
		if t := (*f)(mode); t != "" {
			return t
		}
	}
	return strings.ToUpper(mode)
}

// WorkloadTitle names the sweep's workload for a reader.
func (r *DSBenchResults) WorkloadTitle() string { return WorkloadTitle(r.Mode, r.Workload) }

// WorkloadTitle names the workload run at every size for a reader.
func (r *ClusterSizeResults) WorkloadTitle() string { return WorkloadTitle(r.Mode, r.Workload) }
