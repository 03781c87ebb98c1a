package dbms

import "testing"

// TestClassNames: the names are what results.json, the journal and the
// live stream store, so they stay as they were; the retryable classes are
// pgbench's two and no other; and no class takes the name "conflict" that
// older runs stored for both.
func TestClassNames(t *testing.T) {
	for _, tc := range []struct {
		c         Class
		name      string
		retryable bool
	}{
		{Other, "other", false},
		{BadInput, "bad_input", false},
		{Serialization, "serialization", true},
		{ConnectionLost, "connection_lost", false},
		{Timeout, "timeout", false},
		{Syntax, "syntax", false},
		{Unsupported, "unsupported", false},
		{Invalid, "invalid", false},
		{Refused, "connection_refused", false},
		{ServerUnavailable, "server_unavailable", false},
		{TooManyConnections, "too_many_connections", false},
		{Deadlock, "deadlock", true},
	} {
		if tc.c.String() != tc.name || tc.c.Retryable() != tc.retryable {
			t.Errorf("class %d: %q retryable %v, want %q retryable %v", int(tc.c), tc.c, tc.c.Retryable(), tc.name, tc.retryable)
		}
	}
	seen := map[string]bool{}
	for c := Class(0); int(c) < NumClasses; c++ {
		if name := c.String(); name == "" || name == "conflict" || seen[name] {
			t.Errorf("class %d has the name %q: empty, taken, or the old name of both retryable classes", int(c), name)
		}
		seen[c.String()] = true
		if c.Retryable() && c.Transient() {
			t.Errorf("%s is both retryable and transient: a retry needs the session that failed", c)
		}
	}
	if NumClasses != 12 {
		t.Errorf("NumClasses = %d: a new class needs its row above", NumClasses)
	}
}
