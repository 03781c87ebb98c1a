package postgres

import "github.com/dbgauge/dbgauge/internal/dbms"

var _ dbms.ClusterDescriber = (*Engine)(nil)

// ClusteredHow says what Cluster does (see Cluster in schema.go).
func (e *Engine) ClusteredHow() string {
	return "a B-tree index and CLUSTER: the heap ordered once"
}
