package firebird

import "github.com/dbgauge/dbgauge/internal/dbms"

var _ dbms.ClusterDescriber = (*Engine)(nil)

// ClusteredHow says what Cluster does (see Cluster in schema.go).
func (e *Engine) ClusteredHow() string { return "loaded in unique2 order, with an ascending index" }
