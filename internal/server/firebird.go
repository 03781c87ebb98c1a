package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A private Firebird 3 SuperServer from Debian's firebird3.0-server package.
//
// Layout of the instance directory:
//
//	root/         FIREBIRD: firebird.conf, databases.conf, a private copy of
//	              security3.fdb, and symlinks to the package's plugins,
//	              intl, UDF and firebird.msg
//	lock/ tmp/    FIREBIRD_LOCK and FIREBIRD_TMP, so two instances (or the
//	              system's own server) never share lock tables
//	ext/          the only directory external tables may use
//	dbgauge.fdb   the database the URL names
//	firebird.out  the server's stdout and stderr
//
// The server writes its log to the package's compiled-in log directory
// (/var/log/firebird): Firebird 3 has no setting to move it.
//
// The instance directory is the firebird user's, mode 0700: other local
// users reach neither the database file nor the security database (an
// embedded isql on a readable file needs no password).
//
// The URL is firebird://sysdba:PASSWORD@127.0.0.1:PORT//DIR/dbgauge.fdb,
// PASSWORD the instance's (SYSDBA's in the private security database):
// after host:port, a path that begins with "//" is an absolute file path.

const (
	fbDBName = "dbgauge.fdb"
	fbServer = "/usr/sbin/firebird"
	fbISQL   = "isql-fb"
	fbOSUser = "firebird"
)

type firebirdKind struct{}

func init() { register("firebird", firebirdKind{}) }

func (firebirdKind) tcpOnly() string { return "a private Firebird instance listens on TCP only" }

func (firebirdKind) initialised(dir string) bool {
	return fileExists(filepath.Join(dir, "root", "security3.fdb"))
}

func (firebirdKind) available() error {
	if _, err := os.Stat(fbServer); err != nil {
		return fmt.Errorf("firebird server not found at %s: install the Debian package firebird3.0-server", fbServer)
	}
	if _, err := exec.LookPath(fbISQL); err != nil {
		return fmt.Errorf("%s not found: install the Debian package firebird3.0-utils", fbISQL)
	}
	if _, err := fbPackageDir(); err != nil {
		return err
	}
	if _, err := fbPackageSecurityDB(); err != nil {
		return err
	}
	return nil
}

// fbPackageDir is the package's root directory (plugins, intl, firebird.msg).
func fbPackageDir() (string, error) {
	m, _ := filepath.Glob("/usr/lib/*/firebird/3.0/firebird.msg")
	if len(m) == 0 {
		return "", errors.New("firebird.msg not found under /usr/lib/*/firebird/3.0: install the Debian package firebird3.0-server-core")
	}
	return filepath.Dir(m[0]), nil
}

// fbPackageSecurityDB is the pristine security database the package ships.
func fbPackageSecurityDB() (string, error) {
	const p = "/var/lib/firebird/3.0/system/security3.fdb"
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("%s not found: install the Debian package firebird3.0-server", p)
	}
	return p, nil
}

// firebirdURL is the --db URL of the instance's database.
func firebirdURL(inst *Instance) string {
	return fmt.Sprintf("firebird://%s:%s@127.0.0.1:%d/%s", strings.ToLower(inst.User), inst.Password, inst.Port, filepath.Join(inst.Dir, fbDBName))
}

func (k firebirdKind) start(ctx context.Context, inst *Instance) error {
	cred, err := fbCredential()
	if err != nil {
		return err
	}
	inst.User = "SYSDBA"
	root := filepath.Join(inst.Dir, "root")
	fresh := false
	if _, err := os.Stat(filepath.Join(root, "security3.fdb")); err != nil {
		if err := fbInitRoot(inst.Dir, cred); err != nil {
			return err
		}
		fresh = true
	}
	if err := fbWriteConf(inst); err != nil {
		return err
	}
	if fresh {
		// Embedded isql on the private security database: the server is not
		// running yet, so nothing else holds it.
		sqlText := fmt.Sprintf("create or alter user SYSDBA password '%s';\ncommit;\n", inst.Password)
		if err := fbRunISQL(ctx, inst.Dir, cred, sqlText, "-user", "SYSDBA", filepath.Join(root, "security3.fdb")); err != nil {
			return fmt.Errorf("set SYSDBA password: %w", err)
		}
	}
	if err := fbLaunch(ctx, inst, cred); err != nil {
		return err
	}
	db := filepath.Join(inst.Dir, fbDBName)
	if _, err := os.Stat(db); err != nil {
		// Created through the server, so the server's user owns the file.
		sqlText := fmt.Sprintf("create database '127.0.0.1/%d:%s' user 'SYSDBA' password '%s';\n", inst.Port, db, inst.Password)
		if err := fbRunISQL(ctx, inst.Dir, cred, sqlText); err != nil {
			k.stop(inst)
			return fmt.Errorf("create %s: %w", db, err)
		}
	}
	inst.URL = firebirdURL(inst)
	return nil
}

// fbCredential is the OS user to run the server as: the firebird user when
// we are root (the package's files belong to it, and a database server should
// not run as root), else ourselves (nil).
func fbCredential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup(fbOSUser)
	if err != nil {
		return nil, fmt.Errorf("OS user %s missing: reinstall the Debian package firebird3.0-server: %w", fbOSUser, err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// fbInitRoot builds the private FIREBIRD root and the instance's directories.
func fbInitRoot(dir string, cred *syscall.Credential) error {
	pkg, err := fbPackageDir()
	if err != nil {
		return err
	}
	sec, err := fbPackageSecurityDB()
	if err != nil {
		return err
	}
	root := filepath.Join(dir, "root")
	for _, d := range []string{root, filepath.Join(dir, "lock"), filepath.Join(dir, "tmp"), filepath.Join(dir, "ext")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	for _, name := range []string{"plugins", "intl", "UDF", "lib", "firebird.msg", "plugins.conf"} {
		src := filepath.Join(pkg, name)
		if _, err := os.Stat(src); err != nil {
			continue // optional parts (UDF, lib) may be missing
		}
		if err := os.Symlink(src, filepath.Join(root, name)); err != nil && !os.IsExist(err) {
			return err
		}
	}
	if err := copyFile(sec, filepath.Join(root, "security3.fdb"), 0o660); err != nil {
		return fmt.Errorf("copy security database: %w", err)
	}
	secdb := filepath.Join(root, "security3.fdb")
	dbconf := fmt.Sprintf("# written by dbgauge\nsecurity.db = %s\n{\n\tRemoteAccess = false\n}\n", secdb)
	if err := os.WriteFile(filepath.Join(root, "databases.conf"), []byte(dbconf), 0o644); err != nil {
		return err
	}
	if err := fbOwn(dir, cred); err != nil {
		return err
	}
	return os.Chmod(dir, 0o700)
}

// fbWriteConf writes firebird.conf: fixed loopback and authentication lines,
// then the caller's settings (later lines win in Firebird's parser).
func fbWriteConf(inst *Instance) error {
	root := filepath.Join(inst.Dir, "root")
	var b strings.Builder
	b.WriteString("# written by dbgauge; rewritten at every start\n")
	fmt.Fprintf(&b, "RemoteServicePort = %d\n", inst.Port)
	b.WriteString("RemoteBindAddress = 127.0.0.1\n")
	b.WriteString("ServerMode = Super\n")
	// Enabled (not Required) lets clients connect with or without encryption.
	b.WriteString("WireCrypt = Enabled\n")
	b.WriteString("AuthServer = Srp256, Srp\n")
	b.WriteString("UserManager = Srp\n")
	fmt.Fprintf(&b, "SecurityDatabase = %s\n", filepath.Join(root, "security3.fdb"))
	fmt.Fprintf(&b, "ExternalFileAccess = Restrict %s\n", filepath.Join(inst.Dir, "ext"))
	b.WriteString("UdfAccess = None\n")
	keys := make([]string, 0, len(inst.Settings))
	for k := range inst.Settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if strings.ContainsAny(k+inst.Settings[k], "\n\r") {
			return fmt.Errorf("firebird setting %q: value must be one line", k)
		}
		fmt.Fprintf(&b, "%s = %s\n", k, inst.Settings[k])
	}
	return os.WriteFile(filepath.Join(root, "firebird.conf"), []byte(b.String()), 0o644)
}

// fbEnv is the environment that points Firebird tools at the private root.
func fbEnv(dir string) []string {
	return []string{
		"FIREBIRD=" + filepath.Join(dir, "root"),
		"FIREBIRD_LOCK=" + filepath.Join(dir, "lock"),
		"FIREBIRD_TMP=" + filepath.Join(dir, "tmp"),
		"PATH=/usr/sbin:/usr/bin:/sbin:/bin",
		"HOME=" + dir,
	}
}

// fbRunISQL feeds sqlText to isql-fb as the server's OS user.
func fbRunISQL(ctx context.Context, dir string, cred *syscall.Credential, sqlText string, args ...string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, fbISQL, append([]string{"-quiet", "-bail"}, args...)...)
	cmd.Dir = dir
	cmd.Env = fbEnv(dir)
	cmd.Stdin = strings.NewReader(sqlText)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	out, err := cmd.CombinedOutput()
	if err == nil && bytes.Contains(out, []byte("Statement failed")) {
		err = errors.New("statement failed")
	}
	if err != nil {
		return fmt.Errorf("%s: %w: %s", fbISQL, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// fbChildren reaps the servers this process started, so a stopped server
// does not linger as a zombie that still answers kill(pid, 0).
var fbChildren sync.Map // pid -> chan struct{} closed when the process exited

// fbLaunch starts the server in its own process group (a terminal's Ctrl-C
// does not reach it; stop signals the whole group) and waits until it
// accepts connections.
func fbLaunch(ctx context.Context, inst *Instance, cred *syscall.Credential) error {
	logf, err := os.OpenFile(filepath.Join(inst.Dir, "firebird.out"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer logf.Close()
	cmd := exec.Command(fbServer)
	cmd.Dir = inst.Dir
	cmd.Env = fbEnv(inst.Dir)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: cred}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("run %s: %w", fbServer, err)
	}
	inst.PID = cmd.Process.Pid
	done := make(chan struct{})
	fbChildren.Store(inst.PID, done)
	go func() {
		cmd.Wait()
		close(done)
	}()
	waitCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-done:
			cancel()
		case <-waitCtx.Done():
		}
	}()
	if err := waitTCP(waitCtx, inst.Port, 30*time.Second); err != nil {
		select {
		case <-done:
			return fmt.Errorf("firebird exited at start: %s", fbTail(filepath.Join(inst.Dir, "firebird.out")))
		default:
		}
		fbKill(inst.PID, inst.Port)
		return err
	}
	return nil
}

func (firebirdKind) stop(inst *Instance) error {
	if inst.PID <= 0 {
		return nil
	}
	return fbKill(inst.PID, inst.Port)
}

// fbKill asks the server's process group to shut down (SIGTERM: Firebird
// closes its databases and exits) and kills it when that takes more than
// fbStopGrace.
//
// Firebird 3 does not always act on a single SIGTERM: its listener sleeps in
// poll() for up to a minute, and shutdown sometimes waits on a connection
// thread. So we repeat the signal and knock on the port (a new connection
// wakes the listener) while waiting. Killing is safe for the data: committed
// pages are already written to the file (Firebird's careful-write order keeps
// it consistent at any point), so at worst a restart finds some unused pages.
func fbKill(pid, port int) error {
	deadline := time.Now().Add(fbStopGrace)
	for i := 0; !fbExited(pid); i++ {
		if time.Now().After(deadline) {
			syscall.Kill(-pid, syscall.SIGKILL)
			syscall.Kill(pid, syscall.SIGKILL)
			for j := 0; j < 100 && !fbExited(pid); j++ {
				time.Sleep(50 * time.Millisecond)
			}
			if !fbExited(pid) {
				return fmt.Errorf("firebird process %d did not exit", pid)
			}
			break
		}
		if i%10 == 0 {
			if syscall.Kill(-pid, syscall.SIGTERM) == syscall.ESRCH {
				syscall.Kill(pid, syscall.SIGTERM)
			}
		}
		if i%10 == 4 {
			if c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 200*time.Millisecond); err == nil {
				c.Close()
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	fbChildren.Delete(pid)
	return nil
}

// fbStopGrace is how long a stop waits for Firebird to exit by itself.
const fbStopGrace = 10 * time.Second

// fbExited reports whether pid is gone: reaped if it was our child, else no
// longer present.
func fbExited(pid int) bool {
	if ch, ok := fbChildren.Load(pid); ok {
		select {
		case <-ch.(chan struct{}):
			return true
		default:
			return false
		}
	}
	return syscall.Kill(pid, 0) == syscall.ESRCH
}

// fbOwn gives the server's OS user the instance directory, and lets it reach
// the directory: each ancestor gets the search (x) bit for others, never the
// read bit, so nothing becomes listable (t.TempDir and $HOME are 0700).
func fbOwn(dir string, cred *syscall.Credential) error {
	if cred == nil {
		return nil
	}
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, int(cred.Uid), int(cred.Gid))
	})
	if err != nil {
		return fmt.Errorf("give %s to %s: %w", dir, fbOSUser, err)
	}
	for p := filepath.Dir(dir); p != "/" && p != "."; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		if fi.Mode().Perm()&0o001 == 0 {
			if err := os.Chmod(p, fi.Mode().Perm()|0o001); err != nil {
				return fmt.Errorf("let %s reach %s: %w", fbOSUser, dir, err)
			}
		}
	}
	return nil
}

// copyFile copies src to the new file dst, of mode perm.
func copyFile(src, dst string, perm os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// fbTail is the end of the server's output file, for start errors.
func fbTail(path string) string {
	b, _ := os.ReadFile(path)
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	s := strings.TrimSpace(string(b))
	if s == "" {
		return "no output (see /var/log/firebird)"
	}
	return s
}
