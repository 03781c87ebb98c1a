package dbms

import (
	"reflect"
	"testing"
)

func TestParseURLHosts(t *testing.T) {
	u, err := ParseURL("postgres://u:secret@127.0.0.1:5001,127.0.0.1:5002,[::1]:5003/db?sslmode=disable&target_session_attrs=read-write")
	if err != nil {
		t.Fatal(err)
	}
	want := []HostPort{{"127.0.0.1", "5001"}, {"127.0.0.1", "5002"}, {"::1", "5003"}}
	if !reflect.DeepEqual(u.Hosts, want) || u.Nodes() != 3 || u.Host != "127.0.0.1" || u.Port != "5001" {
		t.Fatalf("hosts %v (host %s port %s), want %v", u.Hosts, u.Host, u.Port, want)
	}
	if u.SessionAttrs != "read-write" || u.Query.Has("target_session_attrs") || u.Query.Get("sslmode") != "disable" {
		t.Errorf("attrs %q, query %v: want read-write taken out of the query", u.SessionAttrs, u.Query)
	}
	if !u.Local() || u.User != "u" || u.Password != "secret" || u.Database != "db" {
		t.Errorf("local %v user %q password %q database %q", u.Local(), u.User, u.Password, u.Database)
	}
	if got := u.Redacted(); got != "postgres://u:***@127.0.0.1:5001,127.0.0.1:5002,[::1]:5003/db?sslmode=disable&target_session_attrs=read-write" {
		t.Errorf("Redacted = %s", got)
	}
	n := u.Node(2)
	if n.Raw != "postgres://u:secret@[::1]:5003/db?sslmode=disable" || n.Host != "::1" || n.Port != "5003" || n.Nodes() != 1 {
		t.Errorf("Node(2) = %s (host %s port %s)", n.Raw, n.Host, n.Port)
	}
	if n.Redacted() != "postgres://u:***@[::1]:5003/db?sslmode=disable" {
		t.Errorf("Node(2).Redacted = %s", n.Redacted())
	}
	r := u.Rotated(1)
	if r.Raw != "postgres://u:secret@127.0.0.1:5002,[::1]:5003,127.0.0.1:5001/db?sslmode=disable&target_session_attrs=read-write" || r.Host != "127.0.0.1" || r.Port != "5002" {
		t.Errorf("Rotated(1) = %s", r.Raw)
	}
	if got := r.Node(0).Raw; got != "postgres://u:secret@127.0.0.1:5002/db?sslmode=disable" {
		t.Errorf("Rotated(1).Node(0) = %s", got)
	}
	a := u.WithSessionAttrs("prefer-standby")
	if a.SessionAttrs != "prefer-standby" || a.Raw != "postgres://u:secret@127.0.0.1:5001,127.0.0.1:5002,[::1]:5003/db?sslmode=disable&target_session_attrs=prefer-standby" {
		t.Errorf("WithSessionAttrs = %s (%s)", a.Raw, a.SessionAttrs)
	}
	if again, err := ParseURL(a.Raw); err != nil || !reflect.DeepEqual(again.Hosts, want) || again.SessionAttrs != "prefer-standby" {
		t.Errorf("reparse %s: %v %v", a.Raw, again, err)
	}

	m, err := ParseURL("mysql://root@127.0.0.1:13306,db.example:13307/dbgauge")
	if err != nil {
		t.Fatal(err)
	}
	if m.Local() || m.Nodes() != 2 || m.Node(1).Raw != "mysql://root@db.example:13307/dbgauge" {
		t.Errorf("mysql: local %v nodes %d node 1 %s", m.Local(), m.Nodes(), m.Node(1).Raw)
	}
	one, err := ParseURL("mysql://root@127.0.0.1:13306/dbgauge")
	if err != nil || one.Nodes() != 1 || one.Node(0).Raw != one.Raw {
		t.Errorf("one host: %v %v", one, err)
	}
	for _, bad := range []string{
		"postgres://u@h1:1,,h2:2/db",
		"postgres://u@h1:1,h2:x/db",
		"postgres://u@h1:1,h2:2/db?target_session_attrs=leader",
		"mysql://u@h1:1,:2/db",
	} {
		if _, err := ParseURL(bad); err == nil || Classify(err) != BadInput {
			t.Errorf("%s: err %v, want a BadInput", bad, err)
		}
	}
}
