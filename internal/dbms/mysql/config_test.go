package mysql

import (
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

func TestConfig(t *testing.T) {
	u, err := dbms.ParseURL("mariadb://bob:p%40ss@127.0.0.1/bench?readTimeout=5s&allowAllFiles=true&multiStatements=true")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config(u)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.User != "bob" || cfg.Passwd != "p@ss" || cfg.Addr != "127.0.0.1:3306" || cfg.DBName != "bench" {
		t.Errorf("user %q pass %q addr %q db %q", cfg.User, cfg.Passwd, cfg.Addr, cfg.DBName)
	}
	if cfg.ReadTimeout != 5*time.Second {
		t.Errorf("readTimeout %v: driver options in the URL must reach the driver", cfg.ReadTimeout)
	}
	if cfg.AllowAllFiles || cfg.MultiStatements || !cfg.InterpolateParams || !cfg.ParseTime {
		t.Errorf("allowAllFiles %v multiStatements %v interpolateParams %v parseTime %v: the adapter's choices must win",
			cfg.AllowAllFiles, cfg.MultiStatements, cfg.InterpolateParams, cfg.ParseTime)
	}

	u, _ = dbms.ParseURL("mysql://127.0.0.1:3307/db")
	if cfg, err := config(u); err != nil || cfg.User != "root" || cfg.Addr != "127.0.0.1:3307" {
		t.Errorf("no user: %+v, %v; want root on port 3307", cfg, err)
	}
	u, _ = dbms.ParseURL("mysql://127.0.0.1/db?readTimeout=soon")
	if _, err := config(u); dbms.Classify(err) != dbms.BadInput {
		t.Errorf("bad driver option: %v, want bad_input", err)
	}
}
