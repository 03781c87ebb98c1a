package mysql

import "github.com/dbgauge/dbgauge/internal/dbms"

var _ dbms.ClusterDescriber = (*Engine)(nil)

// ClusteredHow says what Cluster does (see Cluster in schema.go).
func (e *Engine) ClusteredHow() string { return "the InnoDB primary key" }
