package results

import "strings"

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
}

// WorkloadType is one transaction type of a workload.
type WorkloadType struct {
	Name   string `json:"name"`
	Weight int    `json:"weight"`
}

// legacyTitles name the workloads of runs stored before results said
// what their workload is (no "workload" in results.json): only the two
// that existed then, so that an old run's report reads as it always did.
var legacyTitles = map[string]string{"tpcb": "TPC-B", "select": "SELECT"}

// WorkloadTitle names a run's workload for a reader: the title it
// stored, else (a run stored before the workload said) the title the
// workload had then, else its mode in capitals.
func WorkloadTitle(mode string, info *WorkloadInfo) string {
	if info != nil && info.Title != "" {
		return info.Title
	}
	if t, ok := legacyTitles[mode]; ok {
		return t
	}
	return strings.ToUpper(mode)
}

// WorkloadTitle names the sweep's workload for a reader.
func (r *DSBenchResults) WorkloadTitle() string { return WorkloadTitle(r.Mode, r.Workload) }

// WorkloadTitle names the workload run at every size for a reader.
func (r *ClusterSizeResults) WorkloadTitle() string { return WorkloadTitle(r.Mode, r.Workload) }
