package htmlreport

import (
	"fmt"

	"github.com/dbgauge/dbgauge/internal/report"
	"github.com/dbgauge/dbgauge/internal/results"
)

func init() {
	RegisterPage(PageKind{Name: "dsbench", Doc: (*Run).dsbenchDoc, Metrics: dsbenchMetrics, Diagrams: dsbenchDiagrams, Mismatch: cmpDSBenchMismatch})
}

// dsbench is the run's results; nil when the run is not a dsbench run.
func (r *Run) dsbench() *results.DSBenchResults {
	res, _ := r.Results.(*results.DSBenchResults)
	return res
}

// typesReading says how to read the per-type table.
const typesReading = "Each transaction type's commits, its share of the scale's, its failed trials (by class) and retries, and the percentiles of its residence times, from its own histogram merged over every thread, node and cycle of the scale; under it each statement the workload timed, with how often it ran in the trials counted and its own times. A type whose percentiles stand apart from the others' is where the scale's tail comes from."

const figuresReading = "Figures the workload derives itself after each cycle, from what it read in the database and what its clients counted: a rate read from the database stands beside the clients' own count of the same thing, and an audited figure (the share of inputs of a kind the workload promises) is held to its bounds once the scale has inputs enough to judge. A FAIL there means the load was not the workload it claims to be."

// dsbenchDoc is the page of a stress sweep: the DSI, the median rate per
// scale, the consistency checks and the peak first; then the diagrams
// report draws, each with its reading; then, for a distributed sweep, its
// load nodes (with the node diagram); then the results table, the load
// per transaction (with who used the machine's CPU) and the ranges.
func (r *Run) dsbenchDoc(d *Doc) error {
	ds := r.dsbench()
	d.Title = fmt.Sprintf("DSBENCH stress sweep: %s on %s %s", ds.WorkloadTitle(), ds.Engine, ds.EngineVersion)
	d.Summary = dsbenchHeadlines(ds)
	r.dsbenchWarnings(d)
	scales := sortedScales(ds)
	charts, err := r.charts()
	d.Sections = append(d.Sections, chartSections(charts, []diagram{
		{"rate", "Rate against scale", rateReading(scales)},
		{"cycle", "Rate by cycle", cycleReading(scales) + flaggedReading(ds)},
		{"freq", "Residence time distribution", freqReading(scales)},
		{"conf", "Rate at confidence levels", confReading(ds, scales)},
	})...)
	d.Sections = append(d.Sections, dsbenchNodeSections(ds, charts)...)
	if t := report.DSBenchClusterTable(ds); t != nil {
		d.Sections = append(d.Sections, Section{ID: "cluster", Title: "The cluster's nodes", Reading: clusterReading(ds), Table: t})
	}
	if t := report.DSBenchClusterMeasuresTable(ds); t != nil {
		d.Sections = append(d.Sections, Section{ID: "cluster_measures", Title: "Replication measures per node", Reading: clusterMeasuresReading, Table: t})
	}
	d.Sections = append(d.Sections, chartSections(charts, []diagram{
		{"cluster_lag", "Replication lag over time", "How far each standby was behind its primary, in seconds, once a second as the primary saw it (pg_stat_replication's replay lag), every scale's cycles in turn."},
		{"cluster_queue", "Replication queue over time", "Changes each node had received and not yet applied, once a second (Galera's local receive queue), every scale's cycles in turn: a queue that grows is a node that cannot keep up, which flow control then stops the cluster for."},
		{"cluster_conflicts", "Replication conflicts over time", "Transactions and queries that replication made fail, per second and node (Galera: local certification failures and aborts by an applied write set; a standby: queries its WAL replay cancelled), every scale's cycles in turn. The clients see them as failed trials of class deadlock (Galera) or serialization (a standby)."},
	})...)
	d.Sections = append(d.Sections, Section{ID: "results", Title: "Results per scale", Table: dsbenchResultsTable(ds)})
	d.Sections = append(d.Sections, Section{ID: "per_transaction", Title: "Load per transaction", Reading: cpuReading(scales), Table: report.DSBenchPerTransaction(ds)})
	if report.DSBenchTypesShown(ds) {
		d.Sections = append(d.Sections, Section{ID: "per_type", Title: "Per transaction type and statement", Reading: typesReading, Table: report.DSBenchTypes(ds)})
	}
	if t := report.DSBenchFigures(ds); t != nil {
		d.Sections = append(d.Sections, Section{ID: "figures", Title: "The workload's own figures", Reading: figuresReading, Table: t})
	}
	if t := report.DSBenchFailoverTable(ds); t != nil {
		d.Sections = append(d.Sections, Section{ID: "failover", Title: "A node crashed under load", Reading: failoverReading(ds),
			SVG: InlineSVG(charts["failover.svg"]), Table: t})
	}
	if t := report.DSBenchAcksTable(ds); t != nil {
		d.Sections = append(d.Sections, Section{ID: "acks", Title: "Acknowledged writes checked", Reading: acksReading(ds), Table: t})
	}
	if t := report.DSBenchFaultsTable(ds); t != nil {
		d.Sections = append(d.Sections, Section{ID: "faults", Title: "Faults of the connection and the server", Reading: faultsReading(ds), Table: t})
	}
	if t := dsbenchRangesTable(ds); t != nil {
		d.Sections = append(d.Sections, Section{ID: "ranges", Title: "Ranges of the curve (seed 001 §5.1)", Table: t})
	}
	return err
}
