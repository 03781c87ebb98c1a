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

// TestPasswordParameter: libpq's ?password= is the URL's password as
// much as user:password@ is: Redacted hides it, WithoutPassword leaves
// it out, no driver gets it as a parameter, and it goes before the user
// information's, as in libpq.
func TestPasswordParameter(t *testing.T) {
	for _, tc := range []struct{ raw, password, redacted, without string }{
		{"postgres://u@h/db?password=s3c&sslmode=disable", "s3c", "postgres://u@h/db?password=***&sslmode=disable", "postgres://u@h/db?sslmode=disable"},
		{"postgres://u:old@h/db?sslmode=disable&pass%77ord=n%26w", "n&w", "postgres://u:***@h/db?sslmode=disable&pass%77ord=***", "postgres://u@h/db?sslmode=disable"},
		{"mysql://u@h:1/d?password=a&password=b", "b", "mysql://u@h:1/d?password=***&password=***", "mysql://u@h:1/d"},
	} {
		u, err := ParseURL(tc.raw)
		if err != nil {
			t.Errorf("%s: %v", tc.raw, err)
			continue
		}
		if !u.HasPass || u.Password != tc.password || u.Query.Has("password") {
			t.Errorf("%s: password %q (given %v), query %v; want %q, given, out of the query", tc.raw, u.Password, u.HasPass, u.Query, tc.password)
		}
		if got := u.Redacted(); got != tc.redacted {
			t.Errorf("%s: Redacted() = %s, want %s", tc.raw, got, tc.redacted)
		}
		if got := u.WithoutPassword(); got != tc.without {
			t.Errorf("%s: WithoutPassword() = %s, want %s", tc.raw, got, tc.without)
		}
	}
	if got := RedactPasswords(`cannot open "postgres://u@h/db?password=s3c&x=1"`); got != `cannot open "postgres://u@h/db?password=***&x=1"` {
		t.Errorf("RedactPasswords: %s", got)
	}
}
