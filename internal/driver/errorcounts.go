package driver

import "github.com/dbgauge/dbgauge/internal/dbms"

// ErrorCounts counts failed trials by dbms.Class: an array, so that a
// worker counts without a map on its error path and cycles add up by
// value.
type ErrorCounts [dbms.NumClasses]int64

// Add adds o into c.
func (c *ErrorCounts) Add(o ErrorCounts) {
	for i, n := range o {
		c[i] += n
	}
}

// Map is c by class name, without the classes never seen (nil when none
// was): the form results.json stores.
func (c ErrorCounts) Map() map[string]int64 {
	var m map[string]int64
	for i, n := range c {
		if n == 0 {
			continue
		}
		if m == nil {
			m = map[string]int64{}
		}
		m[dbms.Class(i).String()] = n
	}
	return m
}

// Transient sums the counts of the transient classes: the trials the
// connection's faults cost.
func (c ErrorCounts) Transient() int64 {
	var n int64
	for i, v := range c {
		if dbms.Class(i).Transient() {
			n += v
		}
	}
	return n
}
