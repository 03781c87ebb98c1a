package experiment

import "time"

// timed runs one statement and returns its wall time in milliseconds with
// the rows it returned. It is the one timed region of every experiment
// that times single statements (wisconsin without the protocol, sizesweep,
// abtest and speedup through intoDest), so that all are timed alike: the
// clock is read just before the call and just after it returns, with
// nothing else between (no count check, no drop, no logging).
func timed(stmt func() (int64, error)) (ms float64, rows int64, err error) {
	start := time.Now()
	rows, err = stmt()
	return float64(time.Since(start).Nanoseconds()) / 1e6, rows, err
}
