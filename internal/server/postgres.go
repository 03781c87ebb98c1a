package server

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func init() { register("postgres", postgresKind{}) }

// postgresKind runs a private PostgreSQL cluster with the Debian package's
// initdb and pg_ctl. Layout of the instance directory:
//
//	data/          PGDATA (owned by the server's OS user, mode 0700)
//	sock/          the unix socket directory (the same, mode 0700)
//	postgres.log   the server log (the same, mode 0600)
//
// The cluster listens on 127.0.0.1 only, holds a database named dbgauge,
// and lets in (socket or TCP) only logins with a password
// (scram-sha-256): the postgres role's is the instance's Password.
type postgresKind struct{}

// postgresDB is the database created in every private instance.
const postgresDB = "dbgauge"

// postgresConf is the file, included last from postgresql.conf, that start
// rewrites each time: port, addresses and Options.Settings win over the
// defaults initdb wrote, and a restart picks up the instance's settings.
const postgresConf = "dbgauge.conf"

func (postgresKind) initialised(dir string) bool {
	return fileExists(filepath.Join(dir, "data", "PG_VERSION"))
}

func (postgresKind) available() error {
	_, err := postgresBin()
	return err
}

// postgresBin finds the newest installed server's bin directory.
func postgresBin() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	var found []string
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "pg_ctl")); err == nil {
			found = append(found, d)
		}
	}
	if len(found) == 0 {
		return "", errors.New("PostgreSQL server is not installed (no /usr/lib/postgresql/*/bin/pg_ctl): apt-get install postgresql")
	}
	// Sort by major version number, not by string ("9" > "16" as strings).
	sort.Slice(found, func(i, j int) bool { return pgMajor(found[i]) < pgMajor(found[j]) })
	return found[len(found)-1], nil
}

func pgMajor(bin string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(bin)))
	return n
}

func (k postgresKind) start(ctx context.Context, inst *Instance) (err error) {
	bin, owner, err := postgresTools()
	if err != nil {
		return err
	}
	data := filepath.Join(inst.Dir, "data")
	sock := filepath.Join(inst.Dir, "sock")
	logFile := filepath.Join(inst.Dir, "postgres.log")
	if err := owner.prepare(inst.Dir, data, sock, logFile); err != nil {
		return err
	}
	inst.User = "postgres"
	fresh := false
	if _, statErr := os.Stat(filepath.Join(data, "PG_VERSION")); errors.Is(statErr, os.ErrNotExist) {
		if err := pgInitDB(ctx, bin, owner, inst, data); err != nil {
			return err
		}
		if err := appendLine(filepath.Join(data, "postgresql.conf"), "include_if_exists '"+postgresConf+"'"); err != nil {
			return err
		}
		fresh = true
		// A cluster that failed half way (port taken, createdb failed) is
		// removed, so the next start initialises it again instead of
		// finding a cluster without the dbgauge database.
		defer func() {
			if err != nil {
				k.stop(inst)
				os.RemoveAll(data)
			}
		}()
	}
	if pid, err := postmasterPID(data); err == nil && !running(pid) {
		// A killed server's lock files (the data directory's and the
		// socket's, which hold its pid): the postmaster would take an
		// unreaped zombie of the old one for a running server.
		os.Remove(filepath.Join(data, "postmaster.pid"))
		os.Remove(filepath.Join(sock, fmt.Sprintf(".s.PGSQL.%d.lock", inst.Port)))
	}
	if err := writePostgresConf(filepath.Join(data, postgresConf), inst, sock, owner); err != nil {
		return err
	}
	if err := owner.run(ctx, inst.Dir, filepath.Join(bin, "pg_ctl"),
		"-D", data, "-l", logFile, "-w", "-t", "120", "start"); err != nil {
		return fmt.Errorf("%w; %s (server log: %s)", err, lastFatal(logFile), logFile)
	}
	if inst.PID, err = postmasterPID(data); err != nil {
		return err
	}
	if err := waitTCP(ctx, inst.Port, 30*time.Second); err != nil {
		return err
	}
	if fresh {
		if err := pgCreateDB(ctx, inst); err != nil {
			return err
		}
	}
	inst.URL = fmt.Sprintf("postgres://%s:%s@127.0.0.1:%d/%s", inst.User, inst.Password, inst.Port, postgresDB)
	inst.SocketURL = ""
	if pgSocketOK(sock) {
		// The socket file is SOCKDIR/.s.PGSQL.PORT: libpq and pgx need the
		// port to find it.
		inst.SocketURL = fmt.Sprintf("postgres://%s:%s@/%s?host=%s&port=%d", inst.User, inst.Password, postgresDB, queryEscape(sock), inst.Port)
	}
	return nil
}

// pgInitDB creates the cluster: the postgres role's password is the
// instance's (given to initdb in a file, not on its command line), and
// every login, replication's too, needs a password.
func pgInitDB(ctx context.Context, bin string, owner osOwner, inst *Instance, data string) error {
	pwfile, remove, err := owner.secretFile(inst.Dir, "initdb.pw", inst.Password+"\n")
	if err != nil {
		return err
	}
	defer remove()
	if err := owner.run(ctx, inst.Dir, filepath.Join(bin, "initdb"),
		"-D", data, "-U", inst.User, "--pwfile="+pwfile, "--auth=scram-sha-256", "--encoding=UTF8", "--no-locale"); err != nil {
		return fmt.Errorf("initdb: %w", err)
	}
	return nil
}

// pgCreateDB creates the database every instance holds.
func pgCreateDB(ctx context.Context, inst *Instance) error {
	qctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := pgConnectDB(qctx, inst, "postgres")
	if err != nil {
		return fmt.Errorf("create database %s: %w", postgresDB, err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(qctx, "CREATE DATABASE "+postgresDB); err != nil {
		return fmt.Errorf("create database %s: %w", postgresDB, err)
	}
	return nil
}

// pgSocketOK says whether the socket directory is short enough for the
// socket's path (SOCKDIR/.s.PGSQL.65535) to fit a socket address.
func pgSocketOK(sock string) bool { return len(sock)+len("/.s.PGSQL.65535") < 100 }

// queryEscape percent-encodes a URL query value but keeps slashes, and
// encodes a space as %20 (libpq does not read + as a space).
func queryEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("/-._~", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func (postgresKind) stop(inst *Instance) error {
	bin, owner, err := postgresTools()
	if err != nil {
		return err
	}
	data := filepath.Join(inst.Dir, "data")
	if _, err := os.Stat(filepath.Join(data, "postmaster.pid")); errors.Is(err, os.ErrNotExist) {
		return nil // not running: stopping twice is not an error
	}
	pid, pidErr := postmasterPID(data)
	if pidErr == nil && !running(pid) {
		// Killed (kill -9): pg_ctl would fail to signal it; the next
		// start clears the stale pid file itself.
		return nil
	}
	// Fast shutdown: roll back sessions, checkpoint, exit. -w waits until the
	// postmaster has removed its pid file, i.e. every backend is gone.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := owner.run(ctx, inst.Dir, filepath.Join(bin, "pg_ctl"), "-D", data, "-m", "fast", "-w", "-t", "110", "stop"); err != nil {
		return fmt.Errorf("pg_ctl stop: %w", err)
	}
	if pidErr != nil {
		return nil // no pid to wait for: pg_ctl found the server and stopped it
	}
	// The postmaster removes its pid file as the last thing before it
	// exits, and pg_ctl returns when the file is gone: on a busy machine
	// the process is still there a moment later, and a start right
	// after took it for a running server ("stop it first").
	return waitExit(pid, "the postmaster", 30*time.Second)
}

// writePostgresConf writes the settings start controls. Later lines of a
// PostgreSQL config win, so Options.Settings may override even the port.
func writePostgresConf(path string, inst *Instance, sock string, owner osOwner) error {
	var b strings.Builder
	b.WriteString("# written by dbgauge at every start: edits are lost\n")
	fmt.Fprintf(&b, "listen_addresses = '127.0.0.1'\nport = %d\n", inst.Port)
	// A unix socket path is limited to 107 bytes; a deep instance directory
	// gets TCP only rather than a start failure.
	if pgSocketOK(sock) {
		fmt.Fprintf(&b, "unix_socket_directories = %s\n", pgQuote(sock))
	} else {
		b.WriteString("unix_socket_directories = ''\n")
	}
	// pg_stat_statements is loaded (a library can only be loaded at
	// start) but records nothing: a run that reads the engine's own time
	// turns tracking, and planning's, on for its timed session alone
	// (both are superuser settings a session may change), so a load's
	// clients run on an engine as it is, without a shared entry updated
	// under a lock by every statement (docs/wisconsin.md §8). A --set of
	// the same setting comes later and wins.
	b.WriteString("shared_preload_libraries = 'pg_stat_statements'\npg_stat_statements.track = none\npg_stat_statements.track_planning = off\n")
	keys := make([]string, 0, len(inst.Settings))
	for k := range inst.Settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "%s = %s\n", k, pgQuote(inst.Settings[k]))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		return err
	}
	return owner.chown(path)
}

// pgQuote renders a postgresql.conf value: quoted values are accepted for
// every type, so quoting always is the one safe form.
func pgQuote(v string) string { return "'" + strings.ReplaceAll(v, "'", "''") + "'" }

func appendLine(path, line string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(f, line)
	if e := f.Close(); err == nil {
		err = e
	}
	return err
}

// oneLine joins a program's output lines, for one-line error messages.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(strings.TrimSpace(s), "\n", " ; ")), " ")
}

// lastFatal returns the server log's last reasons for failing (a FATAL or
// PANIC line and a failed bind before it), which pg_ctl does not show.
func lastFatal(logFile string) string {
	b, err := os.ReadFile(logFile)
	if err != nil {
		return "no server log"
	}
	var why []string
	for _, l := range strings.Split(string(b), "\n") {
		for _, mark := range []string{"FATAL:", "PANIC:", "could not bind"} {
			if i := strings.Index(l, mark); i >= 0 {
				why = append(why, strings.TrimSpace(l[i:]))
				break
			}
		}
	}
	if len(why) == 0 {
		return "no FATAL line in the server log"
	}
	return strings.Join(why[max(0, len(why)-2):], "; ")
}

// postmasterPID reads the first line of postmaster.pid.
func postmasterPID(data string) (int, error) {
	b, err := os.ReadFile(filepath.Join(data, "postmaster.pid"))
	if err != nil {
		return 0, err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		return 0, fmt.Errorf("postmaster.pid: %w", err)
	}
	return pid, nil
}

// osOwner is the OS user a server runs as: its package's user when
// dbgauge runs as root (initdb, the postmaster and Galera's state transfer
// refuse or fail as root), else the caller.
type osOwner struct {
	uid, gid int
	cred     *syscall.Credential // nil: run as the caller
}

func postgresOwner() (osOwner, error) { return ownerFor("postgres", "postgresql") }

// postgresTools are the server's bin directory and the user it runs as.
func postgresTools() (string, osOwner, error) {
	bin, err := postgresBin()
	if err != nil {
		return "", osOwner{}, err
	}
	owner, err := postgresOwner()
	return bin, owner, err
}

// ownerFor is the owner for a server whose package creates the OS user name.
func ownerFor(name, pkg string) (osOwner, error) {
	if os.Geteuid() != 0 {
		return osOwner{uid: os.Geteuid(), gid: os.Getegid()}, nil
	}
	u, err := user.Lookup(name)
	if err != nil {
		return osOwner{}, fmt.Errorf("running as root needs the %s OS user (created by apt-get install %s): %w", name, pkg, err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return osOwner{uid: uid, gid: gid, cred: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}, nil
}

func (o osOwner) chown(path string) error {
	if o.cred == nil {
		return nil
	}
	return os.Chown(path, o.uid, o.gid)
}

// prepare creates the server's directories and log, owned by the server
// user and closed to others, and makes every directory above them
// traversable by it.
func (o osOwner) prepare(dir, data, sock, logFile string) error {
	for _, d := range []string{data, sock} {
		if err := o.privateDir(d); err != nil {
			return err
		}
	}
	if err := o.privateFile(logFile); err != nil {
		return err
	}
	return o.traversable(dir)
}

// traversable adds search permission for others to dir and each parent the
// server user could not pass (t.TempDir and mktemp make 0700 root dirs). Only
// the execute bit is added: nobody can list those directories afterwards.
func (o osOwner) traversable(dir string) error {
	if o.cred == nil {
		return nil
	}
	for d := dir; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil {
			return err
		}
		st := fi.Sys().(*syscall.Stat_t)
		mode := fi.Mode().Perm()
		ok := mode&0o001 != 0 ||
			(int(st.Uid) == o.uid && mode&0o100 != 0) ||
			(int(st.Gid) == o.gid && mode&0o010 != 0)
		if !ok {
			if err := os.Chmod(d, fi.Mode()|0o001); err != nil {
				return fmt.Errorf("let the server's OS user reach %s: %w", dir, err)
			}
		}
		if d == filepath.Dir(d) {
			return nil
		}
	}
}

// run runs a server program as the owner and returns its output on failure.
func (o osOwner) run(ctx context.Context, dir, prog string, args ...string) error {
	return o.runEnv(ctx, dir, nil, prog, args...)
}

// runEnv is run with more environment variables (a password for a client
// program: the environment, not the command line that ps shows).
func (o osOwner) runEnv(ctx context.Context, dir string, env []string, prog string, args ...string) error {
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Dir = dir
	// LC_ALL=C keeps messages parseable and initdb independent of the caller's locale.
	cmd.Env = append(append(os.Environ(), "LC_ALL=C"), env...)
	if o.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: o.cred}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %w: %s", filepath.Base(prog), err, oneLine(string(out)))
	}
	return nil
}
