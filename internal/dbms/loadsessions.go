package dbms

// ConcurrentLoader is an engine on which several sessions may fill one
// table at the same time, each by its own Load of a part of the rows, and
// gain by it. LoadSessions is how many such sessions are worth opening (1:
// one at a time). A population loads the parts of a partitioned table
// (workload.Table.FillPart) on that many sessions; an engine without the
// ability loads them one after the other on one session.
type ConcurrentLoader interface {
	LoadSessions() int
}

// LoadSessions is how many sessions may load one table of e at once: its
// ConcurrentLoader answer, at least 1; 1 without the ability.
func LoadSessions(e Engine) int {
	if c, ok := e.(ConcurrentLoader); ok {
		return max(1, c.LoadSessions())
	}
	return 1
}
