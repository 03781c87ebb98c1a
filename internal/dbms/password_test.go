package dbms

import "testing"

// TestWithoutPassword leaves out the password of a URL however it is
// spelled, and nothing else.
func TestWithoutPassword(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{"postgres://u:p@h:5432/db", "postgres://u@h:5432/db"},
		{"postgres://u@h:5432/db", "postgres://u@h:5432/db"},
		{"mysql://root:a%40b%3Ac@unix(/tmp/m.sock)/db?tls=false", "mysql://root@unix(/tmp/m.sock)/db?tls=false"},
		{"postgres://u:p@h1:1,h2:2/db?target_session_attrs=read-write", "postgres://u@h1:1,h2:2/db?target_session_attrs=read-write"},
		{"firebird://SYSDBA:m@s:k@127.0.0.1:3050//tmp/x.fdb", "firebird://SYSDBA@127.0.0.1:3050//tmp/x.fdb"},
		{"postgres://:p@h/db", "postgres://@h/db"},
		{"sqlite:/tmp/a:b@c.db", "sqlite:/tmp/a:b@c.db"},
	} {
		u, err := ParseURL(tc.raw)
		if err != nil {
			t.Errorf("%s: %v", tc.raw, err)
			continue
		}
		if got := u.WithoutPassword(); got != tc.want {
			t.Errorf("%s without its password: %s, want %s", tc.raw, got, tc.want)
		}
	}
}
