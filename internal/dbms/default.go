package dbms

// DefaultEngine is the engine experiments run on when --db is not given
// (the registered adapter with Embedded): an embedded database file in
// the run directory. It panics when no engine is registered as the
// default, a programming error (internal/dbms/all not imported).
func DefaultEngine() string { return defaultAdapter().Name }

// DefaultURL is the URL of the default engine's database file at path.
func DefaultURL(path string) string { return defaultAdapter().Embedded(path, false) }

// DefaultSharedURL is DefaultURL for many sessions writing at once.
func DefaultSharedURL(path string) string { return defaultAdapter().Embedded(path, true) }

func defaultAdapter() *Adapter {
	mu.Lock()
	defer mu.Unlock()
	if embedded == nil {
		panic("dbms: no default embedded engine registered (import internal/dbms/all)")
	}
	return embedded
}
