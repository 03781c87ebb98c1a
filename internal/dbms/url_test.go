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

// A password is redacted however the URL spells it: characters url
// would escape (!, *, ') written as they are, escapes of characters it
// would not, an @ in it.
func TestRedactedSpellings(t *testing.T) {
	for raw, want := range map[string]string{
		"postgres://u:secret@h:5432/db":          "postgres://u:***@h:5432/db",
		"postgres://u:pa!ss@h/db":                "postgres://u:***@h/db",
		"A://:!@0":                               "A://:***@0",
		"mysql://u:%41b@h/db":                    "mysql://u:***@h/db",
		"mysql://u:a@b@h/db":                     "mysql://u:***@h/db",
		"mysql://u:p*'(x)@unix(/run/m.sock)/db":  "mysql://u:***@unix(/run/m.sock)/db",
		"firebird://SYSDBA:mk!@127.0.0.1//x.fdb": "firebird://SYSDBA:***@127.0.0.1//x.fdb",
		"postgres://u@h/db":                      "postgres://u@h/db",
		"sqlite:/tmp/a:b@c.db":                   "sqlite:/tmp/a:b@c.db",
	} {
		u, err := ParseURL(raw)
		if err != nil {
			t.Errorf("%s: %v", raw, err)
			continue
		}
		if got := u.Redacted(); got != want {
			t.Errorf("%s: Redacted() = %q, want %q", raw, got, want)
		}
	}
	// unix(PATH) is the whole host: not inside the password, not before a port.
	for _, bad := range []string{"mysql://u:unix(x)@h/d", "mysql://u:p@unix(/s)@h/d", "mysql://u:p@unix(/s):3306/d"} {
		if _, err := ParseURL(bad); err == nil || Classify(err) != BadInput {
			t.Errorf("%s: err %v, want a BadInput", bad, err)
		}
	}
}
