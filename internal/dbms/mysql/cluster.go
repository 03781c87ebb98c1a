package mysql

import (
	"context"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// galeraMeasures are the Galera status variables a run samples, and
// whether each counts (since the server started) or is a level.
var galeraMeasures = map[string]bool{
	// Local transactions that failed certification (conflicting with a
	// write set another node ordered first), and those aborted by an
	// applier's write set while they ran: both reach the client as 1213.
	"wsrep_local_cert_failures": true,
	"wsrep_local_bf_aborts":     true,
	// Time this node's replication was paused by flow control (a node's
	// receive queue over its limit stops the whole cluster), in ns.
	"wsrep_flow_control_paused_ns": true,
	"wsrep_flow_control_sent":      true,
	"wsrep_flow_control_recv":      true,
	// Write sets waiting to be applied, now.
	"wsrep_local_recv_queue": false,
	// The cluster's members and this node's state (4: synced).
	"wsrep_cluster_size": false,
	"wsrep_local_state":  false,
}

// galeraCharts put measures on the report's diagrams over time.
var galeraCharts = map[string]dbms.Chart{
	"wsrep_local_cert_failures": dbms.ChartConflicts,
	"wsrep_local_bf_aborts":     dbms.ChartConflicts,
	"wsrep_local_recv_queue":    dbms.ChartQueue,
}

// ClusterMeasures reads a Galera node's measures (dbms.ClusterMonitor):
// nothing on a server without Galera.
func (e *Engine) ClusterMeasures(ctx context.Context) ([]dbms.Measure, error) {
	rows, err := e.Conn.QueryContext(ctx, "SHOW GLOBAL STATUS LIKE 'wsrep\\_%'")
	if err != nil {
		return nil, e.classify(err)
	}
	defer rows.Close()
	var out []dbms.Measure
	for rows.Next() {
		var name, value string
		if err := rows.Scan(&name, &value); err != nil {
			return nil, e.classify(err)
		}
		name = strings.ToLower(name)
		counter, ok := galeraMeasures[name]
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			continue // an empty value on a node not yet in the cluster
		}
		out = append(out, dbms.Measure{Name: strings.TrimPrefix(name, "wsrep_"), Value: v, Counter: counter, Chart: galeraCharts[name]})
	}
	if err := rows.Err(); err != nil {
		return nil, e.classify(err)
	}
	return out, nil
}
