package dbms

import "testing"

// TestClassNames: the names are what results.json, the journal and the
// live stream store, and their numbers are what remote agents send
// (ErrorCounts as arrays): both stay as they were, the retryable classes
// are pgbench's two and no other, and no class takes the name "conflict"
// that older runs stored for both.
func TestClassNames(t *testing.T) {
	for _, tc := range []struct {
		c         Class
		n         int
		name      string
		retryable bool
	}{
		{Other, 0, "other", false},
		{BadInput, 1, "bad_input", false},
		{Serialization, 2, "serialization", true},
		{ConnectionLost, 3, "connection_lost", false},
		{Timeout, 4, "timeout", false},
		{Syntax, 5, "syntax", false},
		{Unsupported, 6, "unsupported", false},
		{Invalid, 7, "invalid", false},
		{Refused, 8, "connection_refused", false},
		{ServerUnavailable, 9, "server_unavailable", false},
		{TooManyConnections, 10, "too_many_connections", false},
		{Deadlock, 11, "deadlock", true},
	} {
		if int(tc.c) != tc.n || tc.c.String() != tc.name || tc.c.Retryable() != tc.retryable {
			t.Errorf("class %d %q retryable %v, want %d %q retryable %v", int(tc.c), tc.c, tc.c.Retryable(), tc.n, tc.name, tc.retryable)
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
