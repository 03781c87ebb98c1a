package dbms

import "testing"

// FuzzParseURL: any --db text either parses or is a BadInput error, and a
// URL that parses redacts its password: the redacted form parses back to
// the same URL with "***" as its password, so a manifest or a message
// never echoes the password however the URL spells it; without its
// password, it names the same server.
func FuzzParseURL(f *testing.F) {
	for _, s := range []string{
		"postgres://u@127.0.0.1:5432/db",
		"postgres://u:secret@db.example:5432/db?sslmode=disable",
		"postgres:///db?host=/run/pg",
		"postgres://u@/db?host=/tmp/x%20y",
		"postgres://u@127.0.0.1:5/db?io_timeout=1500ms&sslmode=disable",
		"mysql://root@unix(/tmp/m/mysqld.sock)/dbgauge",
		"mariadb://u:p@unix(/a/b.sock)/d?tls=false",
		"mysql://u:p@localhost:3306/d",
		"mariadb://bob:p%40ss@127.0.0.1/bench?readTimeout=5s&allowAllFiles=true&multiStatements=true",
		"mysql://u:p@[::1]:3306/d",
		"sqlite:/tmp/x.db",
		"sqlite:bench.db?_journal=wal",
		"duckdb::memory:",
		"duckdb:/tmp/x.duckdb",
		"firebird://SYSDBA:masterkey@127.0.0.1:3050//var/lib/firebird/x.fdb",
		"firebird://SYSDBA:masterkey@127.0.0.1/employee",
		"postgres://u:a@h/db?password=b&sslmode=disable",
		"postgres:///db?host=/run/pg&pass%77ord=x",
		"postgres:///db",
		"mysql://u@unix(/x/db",
		"mysql://u@h:1/d?io_timeout=soon",
		":nothing",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := ParseURL(raw)
		if err != nil {
			if Classify(err) != BadInput || err.Error() == "" {
				t.Fatalf("ParseURL(%q): error %v of class %v, want a BadInput", raw, err, Classify(err))
			}
			return
		}
		if u.Scheme == "" || (u.Path == "" && u.Host == "" && u.Socket == "") {
			t.Fatalf("ParseURL(%q) = %+v: no scheme, or neither a path, a host nor a socket", raw, u)
		}
		// Without its password (a child's command line) it names the
		// same server and holds no password.
		bare, err := ParseURL(u.WithoutPassword())
		if err != nil || bare.HasPass || bare.Scheme != u.Scheme || bare.User != u.User || bare.Host != u.Host ||
			bare.Port != u.Port || bare.Database != u.Database || bare.Socket != u.Socket || bare.Path != u.Path ||
			bare.Query.Encode() != u.Query.Encode() {
			t.Fatalf("ParseURL(%q).WithoutPassword() = %q (%v): a password left, or another server", raw, u.WithoutPassword(), err)
		}
		red := u.Redacted()
		if !u.HasPass {
			if red != raw {
				t.Fatalf("ParseURL(%q).Redacted() = %q: changed a URL without a password", raw, red)
			}
			return
		}
		back, err := ParseURL(red)
		if err != nil {
			t.Fatalf("ParseURL(%q).Redacted() = %q, which does not parse: %v", raw, red, err)
		}
		if !back.HasPass || back.Password != "***" {
			t.Fatalf("ParseURL(%q).Redacted() = %q: password %q left, want ***", raw, red, back.Password)
		}
		if back.Scheme != u.Scheme || back.User != u.User || back.Host != u.Host || back.Port != u.Port ||
			back.Database != u.Database || back.Socket != u.Socket || back.Path != u.Path || back.IOTimeout != u.IOTimeout ||
			back.Query.Encode() != u.Query.Encode() {
			t.Fatalf("ParseURL(%q).Redacted() = %q names another server:\n%+v\n%+v", raw, red, u, back)
		}
	})
}
