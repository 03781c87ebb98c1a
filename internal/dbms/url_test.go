package dbms

import "testing"

func TestParseURLSockets(t *testing.T) {
	for _, tc := range []struct {
		raw                        string
		user, host, socket, dbname string
		local                      bool
	}{
		{"postgres://u@127.0.0.1:5432/db", "u", "127.0.0.1", "", "db", true},
		{"postgres://u@db.example:5432/db", "u", "db.example", "", "db", false},
		{"postgres:///db?host=/run/pg", "", "", "/run/pg", "db", true},
		{"postgres://u@/db?host=/tmp/x%20y", "u", "", "/tmp/x y", "db", true},
		{"mysql://root@unix(/tmp/m/mysqld.sock)/dbgauge", "root", "", "/tmp/m/mysqld.sock", "dbgauge", true},
		{"mariadb://u:p@unix(/a/b.sock)/d?tls=false", "u", "", "/a/b.sock", "d", true},
		{"mysql://u:p@localhost:3306/d", "u", "localhost", "", "d", true},
	} {
		u, err := ParseURL(tc.raw)
		if err != nil {
			t.Errorf("%s: %v", tc.raw, err)
			continue
		}
		if u.User != tc.user || u.Host != tc.host || u.Socket != tc.socket || u.Database != tc.dbname || u.Local() != tc.local {
			t.Errorf("%s: user %q host %q socket %q database %q local %v; want %q %q %q %q %v",
				tc.raw, u.User, u.Host, u.Socket, u.Database, u.Local(), tc.user, tc.host, tc.socket, tc.dbname, tc.local)
		}
	}
	for _, bad := range []string{"postgres:///db", "mysql://u@unix(/x/db", "mysql://u@unix()/db"} {
		if _, err := ParseURL(bad); err == nil || Classify(err) != BadInput {
			t.Errorf("%s: err %v, want a BadInput", bad, err)
		}
	}
}

func TestParseURLIOTimeout(t *testing.T) {
	u, err := ParseURL("postgres://u@127.0.0.1:5/db?io_timeout=1500ms&sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	if u.IOTimeout.Milliseconds() != 1500 || u.Query.Has("io_timeout") || u.Query.Get("sslmode") != "disable" {
		t.Errorf("IOTimeout %v, query %v; want 1.5s and only sslmode left", u.IOTimeout, u.Query)
	}
	for _, bad := range []string{"mysql://u@h:1/d?io_timeout=0s", "mysql://u@h:1/d?io_timeout=soon"} {
		if _, err := ParseURL(bad); err == nil || Classify(err) != BadInput {
			t.Errorf("%s: err %v, want a BadInput", bad, err)
		}
	}
}
