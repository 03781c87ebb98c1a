package server

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"
)

// A private server belongs to whoever started it: other local users must
// not reach its data, its files or its superuser. So its processes run as
// an unprivileged OS user (the engine package's: postgres, mysql,
// firebird, when dbgauge runs as root), its socket sits in a directory
// only that user may enter (mode 0700), every login needs the password
// generated when the instance was created, which only the instance's
// record (mode 0600) and the URLs it gives out hold, and the server may
// write files only inside the instance (MariaDB's secure_file_priv,
// Firebird's ExternalFileAccess). Passwords never go on a child process's
// command line, where ps shows them: files of mode 0600 or the
// environment carry them.

// newPassword is a random password of 128 bits, in hexadecimal: no
// character needs quoting in a URL, a DSN, SQL or a configuration file.
func newPassword() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate the instance's password: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// writePrivate writes a file only its owner may read (it may hold a
// password): a new file beside it, renamed over it, so that an older file
// of a wider mode never keeps its mode.
func writePrivate(path string, b []byte) error {
	tmp := path + ".new"
	os.Remove(tmp)
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// privateDir creates dir (if missing) with mode 0700, owned by the
// server's OS user: only that user (and root) may enter it.
func (o osOwner) privateDir(dir string) error {
	// A directory someone else made (in the temporary directory, where
	// anyone may), or a link, is not taken over.
	if fi, err := os.Lstat(dir); err == nil {
		st := fi.Sys().(*syscall.Stat_t)
		if !fi.IsDir() || (int(st.Uid) != o.uid && st.Uid != uint32(os.Geteuid())) {
			return fmt.Errorf("%s exists and is not a directory of the server's OS user or of ours: remove it", dir)
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return err
	}
	return o.chown(dir)
}

// privateFile creates path (if missing) as a file of mode 0600 owned by
// the server's OS user, for a log the server appends to.
func (o osOwner) privateFile(path string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	f.Close()
	if err := os.Chmod(path, 0o600); err != nil {
		return err
	}
	return o.chown(path)
}

// secretFile writes a file holding a secret for a program the server's OS
// user runs (initdb's --pwfile, mariadb-install-db's --extra-file) and
// returns its path and a function that removes it.
func (o osOwner) secretFile(dir, name, text string) (string, func(), error) {
	path := filepath.Join(dir, name)
	if err := writePrivate(path, []byte(text)); err != nil {
		return "", nil, err
	}
	if err := o.chown(path); err != nil {
		os.Remove(path)
		return "", nil, err
	}
	return path, func() { os.Remove(path) }, nil
}

// portFree says whether nothing listens on the loopback port.
func portFree(port int) bool {
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return false
	}
	l.Close()
	return true
}

// fileExists says whether path names something (its parent readable).
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
