package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	_ "github.com/go-sql-driver/mysql" // readiness check and CREATE DATABASE
)

// MariaDB runs as mariadbd --no-defaults on a private datadir, socket and pid
// file, so no /etc/mysql file and no system service takes part. The same
// kind serves "mysql", the name users of the mysql:// scheme reach for.
//
// Layout of the instance directory (each part owned by the server's OS
// user, the mysql user when dbgauge runs as root):
//
//	data/          the datadir (mode 0700)
//	sock/          the socket and the pid file (mode 0700)
//	files/         secure_file_priv: the only directory where the server
//	               reads and writes files for SQL (mode 0700)
//	mariadbd.log   the server's log (mode 0600)
//
// root's password, for every host it may come from, is the instance's.
func init() {
	k := mariadbKind{}
	register("mariadb", k)
	register("mysql", k)
}

type mariadbKind struct{}

// mariaDB is the database every instance holds.
const mariaDB = "dbgauge"

// mariaOwner is the OS user the server runs as.
func mariaOwner() (osOwner, error) { return ownerFor("mysql", "mariadb-server") }

const mariaLog = "mariadbd.log"

func (mariadbKind) initialised(dir string) bool {
	return fileExists(filepath.Join(dir, "data", "mysql"))
}

func (mariadbKind) available() error {
	for _, prog := range []string{"mariadbd", "mariadb-install-db"} {
		if _, err := mariaBin(prog); err != nil {
			return fmt.Errorf("%s not found: install the Debian package mariadb-server (apt-get install mariadb-server)", prog)
		}
	}
	return nil
}

// mariaBin finds a MariaDB program; mariadbd lives in /usr/sbin, which a
// non-root PATH often lacks.
func mariaBin(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	for _, dir := range []string{"/usr/sbin", "/usr/bin", "/usr/local/mysql/bin"} {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: %w", name, exec.ErrNotFound)
}

func (k mariadbKind) start(ctx context.Context, inst *Instance) (err error) {
	owner, err := mariaOwner()
	if err != nil {
		return err
	}
	if err := mariaLayout(inst, owner); err != nil {
		return err
	}
	inst.User = "root"
	data := filepath.Join(inst.Dir, "data")
	if _, err := os.Stat(filepath.Join(data, "mysql")); errors.Is(err, os.ErrNotExist) {
		if err := mariaInstall(ctx, inst, owner, append([]string{"--no-defaults", "--datadir=" + data}, mariaUser()...)...); err != nil {
			os.RemoveAll(data) // the next start initialises again
			owner.privateDir(data)
			return err
		}
	}
	logPath := filepath.Join(inst.Dir, mariaLog)
	logStart := mariaLogSize(logPath) // this launch's part of the log, for start errors
	if err := mariaLaunch(inst, data); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			mariaKill(inst.PID, data)
		}
	}()
	if err := mariaReady(ctx, inst, logPath, logStart); err != nil {
		return err
	}
	mariaURLs(inst)
	return nil
}

// mariaURLs sets the instance's URLs: root with its password, by TCP and
// by the socket.
func mariaURLs(inst *Instance) {
	inst.URL = fmt.Sprintf("mysql://%s:%s@127.0.0.1:%d/%s", inst.User, inst.Password, inst.Port, mariaDB)
	inst.SocketURL = fmt.Sprintf("mysql://%s:%s@unix(%s)/%s", inst.User, inst.Password, mariaSocket(inst), mariaDB)
}

// mariaLayout creates the instance's directories and log, owned by the
// server's OS user and closed to others, and lets that user reach them.
func mariaLayout(inst *Instance, owner osOwner) error {
	for _, d := range []string{filepath.Join(inst.Dir, "data"), mariaSockDir(inst), filepath.Join(inst.Dir, "files"), filepath.Join(inst.Dir, "tmp")} {
		if err := owner.privateDir(d); err != nil {
			return err
		}
	}
	if err := owner.privateFile(filepath.Join(inst.Dir, mariaLog)); err != nil {
		return err
	}
	return owner.traversable(inst.Dir)
}

// mariaInstall creates the system tables in the data directory opts name
// (--no-defaults and --datadir, or a --defaults-file). root gets an
// ordinary password, the instance's, instead of unix_socket
// authentication, so TCP logins work; the SQL that sets it is in a file
// of mode 0600 (--extra-file), not on a command line.
func mariaInstall(ctx context.Context, inst *Instance, owner osOwner, opts ...string) error {
	bin, err := mariaBin("mariadb-install-db")
	if err != nil {
		return err
	}
	// In bootstrap mode the grant tables are loaded by FLUSH PRIVILEGES
	// only; ALTER USER fails before it.
	var sqlText strings.Builder
	sqlText.WriteString("FLUSH PRIVILEGES;\n")
	for _, host := range []string{"localhost", "127.0.0.1", "::1"} {
		fmt.Fprintf(&sqlText, "ALTER USER IF EXISTS '%s'@'%s' IDENTIFIED BY '%s';\n", inst.User, host, inst.Password)
	}
	extra, remove, err := owner.secretFile(inst.Dir, "install-db.sql", sqlText.String())
	if err != nil {
		return err
	}
	defer remove()
	args := append(opts, "--auth-root-authentication-method=normal", "--skip-test-db", "--skip-name-resolve", "--extra-file="+extra)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = inst.Dir
	out, err := cmd.CombinedOutput()
	dir := inst.Dir
	os.WriteFile(filepath.Join(dir, "install-db.log"), out, 0o600)
	if err != nil {
		// Its last lines are a boilerplate plea for a bug report: the
		// lines that say ERROR come first.
		return fmt.Errorf("mariadb-install-db: %w: %s (log: %s)", err, mariaErrorLines(string(out), 10), filepath.Join(dir, "install-db.log"))
	}
	return nil
}

// mariaErrorLines are the last n of s's lines that name an error (a
// server's [ERROR], an install script's ERROR), else its last n lines.
func mariaErrorLines(s string, n int) string {
	var errs []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "ERROR") {
			errs = append(errs, strings.TrimSpace(l))
		}
	}
	if len(errs) == 0 {
		return mariaLastLines(s, n)
	}
	return mariaLastLines(strings.Join(errs, "\n"), n)
}

// mariaUser is the --user option: run as root, mariadbd becomes the mysql
// user once it has started (it owns the instance's directories).
func mariaUser() []string {
	if os.Geteuid() == 0 {
		return []string{"--user=mysql"}
	}
	return nil
}

// mariaArgs are mariadbd's options: the fixed ones, then Options.Settings
// (later options win, so settings may override any of them).
func mariaArgs(inst *Instance, data string) []string {
	args := []string{"--no-defaults"}
	for _, kv := range mariaFixed(inst, data) {
		args = append(args, mariaOpt(kv[0], kv[1]))
	}
	args = append(args, mariaUser()...)
	// performance_schema and its statement consumers, which can only be
	// turned on at start, for engine-reported time (TIMER_WAIT of each
	// statement in the session's history); mariaReady then leaves every
	// new session uninstrumented (mariaSessionsUninstrumented). A --set
	// may turn them off again, later options win.
	for _, kv := range mariaEngineTime {
		args = append(args, mariaOpt(kv[0], kv[1]))
	}
	keys := make([]string, 0, len(inst.Settings))
	for k := range inst.Settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		args = append(args, mariaOpt(k, inst.Settings[k]))
	}
	return args
}

// mariaEngineTime turns on what the engine-reported time reads. The
// consumers are global and stay on: which sessions they record is
// decided per session (setup_actors, threads.INSTRUMENTED), so a run
// that reads engine time turns its own session on and a load's sessions
// stay unrecorded.
var mariaEngineTime = [][2]string{
	{"performance_schema", "ON"},
	{"performance-schema-consumer-events-statements-current", "ON"},
	{"performance-schema-consumer-events-statements-history", "ON"},
}

// mariaOpt is one option on the command line: --name or --name=value.
func mariaOpt(name, value string) string {
	opt := "--" + strings.TrimLeft(name, "-")
	if value != "" {
		opt += "=" + value
	}
	return opt
}

// mariaFixed are the options every private server gets, as name and value
// (empty for a switch), for the command line or a my.cnf.
func mariaFixed(inst *Instance, data string) [][2]string {
	return [][2]string{
		{"datadir", data},
		{"socket", mariaSocket(inst)},
		{"pid-file", filepath.Join(mariaSockDir(inst), "mariadbd.pid")},
		// SELECT ... INTO OUTFILE and LOAD DATA INFILE (not LOCAL) only
		// in the instance's own directory, which only its owner reaches.
		{"secure-file-priv", filepath.Join(inst.Dir, "files")},
		// Temporary tables on disk in the instance's own directory, not
		// the shared /tmp: a sweep saw an on-disk temporary table of a
		// consistency check vanish from /tmp under the server ("Error on
		// delete of '/tmp/#sql-temptable-...'"), and no other process's
		// clean-up of /tmp may reach a measured server's files.
		{"tmpdir", filepath.Join(inst.Dir, "tmp")},
		{"log-error", filepath.Join(inst.Dir, mariaLog)},
		{"port", fmt.Sprint(inst.Port)},
		{"bind-address", "127.0.0.1"},
		{"skip-networking", "0"},
		{"local-infile", "1"},
		// Logins by IP only: no DNS lookup in the connect path.
		{"skip-name-resolve", ""},
	}
}

// mariaSocket is the Unix socket, in the instance's socket directory.
func mariaSocket(inst *Instance) string {
	return filepath.Join(mariaSockDir(inst), "mariadbd.sock")
}

// mariaSockDir is the directory of the socket and the pid file: DIR/sock,
// unless the socket's path would pass the 107-byte limit of a socket
// address; then a directory of the port's in the temporary directory.
func mariaSockDir(inst *Instance) string {
	d := filepath.Join(inst.Dir, "sock")
	if len(d+"/mariadbd.sock") < 100 {
		return d
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("dbgauge-mariadb-%d", inst.Port))
}

// mariaChildren reaps the servers this process started, so a stopped server
// does not linger as a zombie that still answers kill(pid, 0).
var mariaChildren sync.Map // pid -> chan struct{} closed when the process exited

// mariaLaunch starts mariadbd in its own session: a terminal's Ctrl-C does
// not reach it, and `dbgauge server start` may exit while it runs on.
func mariaLaunch(inst *Instance, data string) error {
	bin, err := mariaBin("mariadbd")
	if err != nil {
		return err
	}
	return mariaStart(inst, bin, mariaArgs(inst, data))
}

// mariaReady waits until the server answers SQL (an open TCP port is not
// enough: InnoDB recovery may still run) and creates the dbgauge database.
func mariaReady(ctx context.Context, inst *Instance, logPath string, logStart int64) error {
	db, err := sql.Open("mysql", mariaDSN(inst))
	if err != nil {
		return err
	}
	defer db.Close()
	deadline := time.Now().Add(90 * time.Second)
	for {
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err = db.PingContext(pctx)
		cancel()
		if err == nil {
			break
		}
		if mariaExited(inst.PID) {
			return fmt.Errorf("mariadbd exited at start: %s (log: %s)", mariaTail(logPath, logStart), logPath)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("mariadbd does not answer on port %d after 90s: %v (log: %s)", inst.Port, err, logPath)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	if _, err := db.ExecContext(ctx, mariaSessionsUninstrumented); err != nil {
		return fmt.Errorf("leave new sessions uninstrumented: %w", err)
	}
	return mariaCreateDB(ctx, inst)
}

// mariaDSN is the Go driver's name for the instance's server as root,
// over loopback TCP, with no database.
func mariaDSN(inst *Instance) string {
	return fmt.Sprintf("%s:%s@tcp(127.0.0.1:%d)/?timeout=2s", inst.User, inst.Password, inst.Port)
}

// mariaSessionsUninstrumented makes performance_schema instrument no new
// session (setup_actors is read when a session starts, and is reset at
// every server start, so it is set at every start): a load's clients
// run without a statement event and history entry per statement, and a
// run that reads engine time turns its own session's instrumentation on
// (the mysql adapter's EngineTiming; docs/wisconsin.md §8).
const mariaSessionsUninstrumented = "UPDATE performance_schema.setup_actors SET ENABLED = 'NO', HISTORY = 'NO'"

// mariaCreateDB creates the database every instance holds.
func mariaCreateDB(ctx context.Context, inst *Instance) error {
	db, err := sql.Open("mysql", mariaDSN(inst))
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "CREATE DATABASE IF NOT EXISTS "+mariaDB); err != nil {
		return fmt.Errorf("create database %s: %w", mariaDB, err)
	}
	return nil
}

func (mariadbKind) stop(inst *Instance) error {
	return mariaKill(inst.PID, filepath.Join(inst.Dir, "data"))
}

// mariaKill shuts the server down with SIGTERM (a clean shutdown: InnoDB
// flushes and closes) and waits for the process to go; SIGKILL after 2
// minutes. It signals pid only while it is the mariadbd of this datadir, so a
// stale pid reused by another process is never touched.
func mariaKill(pid int, data string) error {
	if pid <= 0 || mariaExited(pid) {
		mariaChildren.Delete(pid)
		return nil
	}
	if !mariaServes(pid, data) {
		return nil // gone, or the pid now belongs to another program
	}
	syscall.Kill(pid, syscall.SIGTERM)
	deadline := time.Now().Add(2 * time.Minute)
	for !mariaExited(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			time.Sleep(500 * time.Millisecond)
			if !mariaExited(pid) {
				return fmt.Errorf("mariadbd %d did not exit", pid)
			}
			mariaChildren.Delete(pid)
			return fmt.Errorf("mariadbd %d did not shut down in 2 minutes and was killed", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
	mariaChildren.Delete(pid)
	return nil
}

// mariaServes reports whether pid is a mariadbd started on datadir data.
func mariaServes(pid int, data string) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return false
	}
	args := strings.Split(string(b), "\x00")
	return len(args) > 0 && strings.HasPrefix(filepath.Base(args[0]), "mariadbd") &&
		strings.Contains(string(b), "--datadir="+data+"\x00")
}

// mariaExited reports whether pid is gone: reaped if it was our child, else
// no longer present (or a zombie waiting for another parent).
func mariaExited(pid int) bool {
	if ch, ok := mariaChildren.Load(pid); ok {
		select {
		case <-ch.(chan struct{}):
			return true
		default:
			return false
		}
	}
	if syscall.Kill(pid, 0) == syscall.ESRCH {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	// Field 3, after the parenthesised command name, is the state.
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] == 'Z'
	}
	return false
}

// mariaTail is what this launch logged, for start failures: its [ERROR]
// lines when there are any (the reason, without InnoDB's start-up notes).
func mariaTail(path string, from int64) string {
	s, err := mariaLogSince(path, from)
	if err != nil {
		return "no log: " + err.Error()
	}
	return mariaErrorLines(s, 8)
}

// mariaLogSize is the size of a server's log before a launch (0 when
// there is none yet): what the launch logs comes after it.
func mariaLogSize(path string) int64 {
	if st, err := os.Stat(path); err == nil {
		return st.Size()
	}
	return 0
}

// mariaLogSince is what the log holds from offset from on: one launch's
// part of it.
func mariaLogSince(path string, from int64) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	if from <= int64(len(b)) {
		b = b[from:]
	}
	return string(b), nil
}

func mariaLastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
