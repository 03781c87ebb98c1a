package results

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// catalogLockFile is taken (flock, exclusive) around every change to a
// catalog: registering a run, bringing the catalog up to date, rebuilding
// it. SQLite's own locking is enough for rows, but a rebuild replaces the
// file and removes its journal by name, which another process in the
// middle of a write must never see; a lock for the whole file keeps them
// apart. Catalog changes take milliseconds, so waiting is short.
const catalogLockFile = ".catalog.lock"

// withCatalogLock runs fn holding root's catalog lock.
func withCatalogLock(root string, fn func() error) error {
	f, err := os.OpenFile(filepath.Join(root, catalogLockFile), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return fmt.Errorf("catalog lock: %w", err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("catalog lock: %w", err)
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return fn()
}
