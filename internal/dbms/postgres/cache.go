package postgres

import "context"

// FlushCache drops what a session can: its cached plans. PostgreSQL has no
// statement that empties shared_buffers; only a restart does (see
// server.Instance.Restart), and the operating system's page cache is not the
// engine's to drop. DISCARD ALL is not used: it would also reset session
// settings an experiment made on purpose.
func (e *Engine) FlushCache(ctx context.Context) (done, notDone []string, err error) {
	notDone = []string{
		"shared_buffers (PostgreSQL's buffer pool) cannot be emptied without a server restart",
		"the operating system page cache is outside PostgreSQL",
	}
	if _, err := e.Exec(ctx, "DISCARD PLANS"); err != nil {
		return nil, notDone, err
	}
	return []string{"DISCARD PLANS: this session's cached query plans"}, notDone, nil
}
