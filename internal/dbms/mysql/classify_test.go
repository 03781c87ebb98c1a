package mysql

import (
	"testing"

	mysqldrv "github.com/go-sql-driver/mysql"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// TestClassifyGaleraNotReady: a Galera node that is joining answers 1047
// naming WSREP, a server state that passes (the clients wait and try
// again); any other 1047 stays unclassified.
func TestClassifyGaleraNotReady(t *testing.T) {
	joining := &mysqldrv.MySQLError{Number: 1047, SQLState: [5]byte{'0', '8', 'S', '0', '1'}, Message: "WSREP has not yet prepared node for application use"}
	if c := classOf(joining); c != dbms.ServerUnavailable {
		t.Errorf("%v: class %s, want server_unavailable", joining, c)
	}
	unknown := &mysqldrv.MySQLError{Number: 1047, SQLState: [5]byte{'0', '8', 'S', '0', '1'}, Message: "Unknown command"}
	if c := classOf(unknown); c != dbms.Other {
		t.Errorf("%v: class %s, want other", unknown, c)
	}
}
