package sqlite

import "github.com/dbgauge/dbgauge/internal/dbms"

var _ dbms.ClusterDescriber = (*Engine)(nil)

// ClusteredHow says what Cluster does (see Cluster).
func (e *Engine) ClusteredHow() string { return "a WITHOUT ROWID table keyed on it" }
