package server

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	_ "github.com/nakagami/firebirdsql" // the probe's Firebird logins
)

// TestPrivateServersRefuseOthers tries each private server as another
// local user would (the OS user nobody): no login without the password,
// by TCP or by the socket, whose directory nobody may enter; no file
// written outside the instance even with the password (MariaDB's
// secure_file_priv); no server process running as root; the instance's
// record, which holds the password, readable by its owner only.
func TestPrivateServersRefuseOthers(t *testing.T) {
	nobody := nobodyCred(t)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()

	t.Run("postgres", func(t *testing.T) {
		inst, err := Start(ctx, "postgres", t.TempDir(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { inst.Stop() })
		checkPostgresPrivate(t, nobody, inst)
		checkRecordPrivate(t, filepath.Join(inst.Dir, stateFile))
	})
	t.Run("standby", func(t *testing.T) {
		c, err := StartCluster(ctx, "postgres", t.TempDir(), ClusterOptions{Nodes: 2})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Stop() })
		for _, n := range c.Nodes {
			t.Run(n.Name, func(t *testing.T) { checkPostgresPrivate(t, nobody, n.Instance) })
			checkRecordPrivate(t, filepath.Join(n.Dir, stateFile))
		}
		checkRecordPrivate(t, filepath.Join(c.Dir, clusterFile))
		// The standby streams with the password: the primary lets no
		// replication login in without one.
		var streaming string
		if err := pgValue(ctx, c.Nodes[0].Instance, "SELECT coalesce(max(state), 'absent') FROM pg_stat_replication", func(s string) bool { streaming = s; return true }); err != nil || streaming != "streaming" {
			t.Errorf("the standby's replication: %q, %v; want streaming", streaming, err)
		}
	})
	t.Run("mariadb", func(t *testing.T) {
		inst, err := Start(ctx, "mariadb", t.TempDir(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { inst.Stop() })
		checkMariaPrivate(t, nobody, inst)
		checkRecordPrivate(t, filepath.Join(inst.Dir, stateFile))
	})
	t.Run("galera", func(t *testing.T) {
		c, err := StartCluster(ctx, "galera", t.TempDir(), ClusterOptions{Nodes: 1})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Stop() })
		checkMariaPrivate(t, nobody, c.Nodes[0].Instance)
		checkRecordPrivate(t, filepath.Join(c.Dir, clusterFile))
		checkRecordPrivate(t, filepath.Join(c.Nodes[0].Dir, stateFile))
	})
	t.Run("firebird", func(t *testing.T) {
		inst, err := Start(ctx, "firebird", t.TempDir(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { inst.Stop() })
		checkServerNotRoot(t, inst.PID)
		db := filepath.Join(inst.Dir, fbDBName)
		if err := firebirdPing(fmt.Sprintf("sysdba:%s@127.0.0.1:%d/%s", inst.Password, inst.Port, db)); err != nil {
			t.Fatalf("the owner with the password: %v", err)
		}
		probes := []probe{
			{Name: "TCP with the package's default password", Kind: "firebird", Target: fmt.Sprintf("sysdba:masterkey@127.0.0.1:%d/%s", inst.Port, db), Want: "password are not defined"},
			{Name: "TCP with no password", Kind: "firebird", Target: fmt.Sprintf("sysdba:@127.0.0.1:%d/%s", inst.Port, db), Want: "password are not defined"},
			{Name: "the database file", Kind: "open", Target: db, Want: denied},
			{Name: "the security database", Kind: "open", Target: filepath.Join(inst.Dir, "root", "security3.fdb"), Want: denied},
		}
		expectRefused(t, nobody, probes)
		checkRecordPrivate(t, filepath.Join(inst.Dir, stateFile))
	})
}

// checkPostgresPrivate tries a PostgreSQL instance as nobody and, without
// the password, as its owner.
func checkPostgresPrivate(t *testing.T, nobody *syscall.Credential, inst *Instance) {
	t.Helper()
	checkServerNotRoot(t, inst.PID)
	for _, c := range childrenOf(inst.PID) {
		checkNotRoot(t, c)
	}
	sock := filepath.Join(inst.Dir, "sock")
	tcp := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/dbgauge?sslmode=disable", inst.Port)
	unix := fmt.Sprintf("postgres://postgres@/dbgauge?host=%s&port=%d", sock, inst.Port)
	expectRefused(t, nobody, []probe{
		{Name: "TCP without the password", Kind: "pg", Target: tcp, Want: "password"},
		{Name: "the socket without the password", Kind: "pg", Target: unix, Want: denied},
		{Name: "the socket with the password", Kind: "pg", Target: inst.SocketURL, Want: denied},
		{Name: "the socket directory", Kind: "open", Target: sock, Want: denied},
		{Name: "the data directory", Kind: "open", Target: filepath.Join(inst.Dir, "data"), Want: denied},
	})
	// Every line of pg_hba.conf, replication's too, asks for a password.
	hba, err := os.ReadFile(filepath.Join(inst.Dir, "data", "pg_hba.conf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(hba), "\n") {
		if f := strings.Fields(l); len(f) > 0 && !strings.HasPrefix(f[0], "#") && f[len(f)-1] != "scram-sha-256" {
			t.Errorf("pg_hba.conf lets in without a password: %s", l)
		}
	}
	// The owner too needs the password: the socket trusts no one.
	for _, url := range []string{tcp, unix} {
		if err := pgPing(url); err == nil {
			t.Errorf("the owner without the password through %s: logged in", url)
		}
	}
	if err := pgPing(inst.SocketURL); err != nil {
		t.Errorf("the owner with the socket URL: %v", err)
	}
}

// checkMariaPrivate tries a MariaDB instance (or Galera node) as nobody
// and as its owner.
func checkMariaPrivate(t *testing.T, nobody *syscall.Credential, inst *Instance) {
	t.Helper()
	checkServerNotRoot(t, inst.PID)
	sock := mariaSocket(inst)
	expectRefused(t, nobody, []probe{
		{Name: "TCP without the password", Kind: "mysql", Target: fmt.Sprintf("root@tcp(127.0.0.1:%d)/dbgauge", inst.Port), Want: "Access denied"},
		{Name: "the socket without the password", Kind: "mysql", Target: fmt.Sprintf("root@unix(%s)/dbgauge", sock), Want: denied},
		{Name: "the socket with the password", Kind: "mysql", Target: fmt.Sprintf("root:%s@unix(%s)/dbgauge", inst.Password, sock), Want: denied},
		{Name: "the socket directory", Kind: "open", Target: filepath.Dir(sock), Want: denied},
		{Name: "the data directory", Kind: "open", Target: filepath.Join(inst.Dir, "data"), Want: denied},
	})
	for _, dsn := range []string{fmt.Sprintf("root@unix(%s)/dbgauge", sock), fmt.Sprintf("root@tcp(127.0.0.1:%d)/dbgauge", inst.Port)} {
		if err := mysqlPing(dsn); err == nil {
			t.Errorf("the owner without the password (%s): logged in", dsn)
		}
	}
	// With the password, the server still writes no file outside the
	// instance.
	out := filepath.Join(os.TempDir(), fmt.Sprintf("dbgauge-outfile-%d", inst.Port))
	os.Remove(out)
	db, err := sql.Open("mysql", fmt.Sprintf("root:%s@tcp(127.0.0.1:%d)/dbgauge", inst.Password, inst.Port))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, err = db.Exec("SELECT 1 INTO OUTFILE '" + out + "'")
	if err == nil || !strings.Contains(err.Error(), "secure-file-priv") {
		t.Errorf("SELECT ... INTO OUTFILE %s with the password: %v; want refused by --secure-file-priv", out, err)
	}
	if _, serr := os.Stat(out); serr == nil {
		os.Remove(out)
		t.Errorf("the server wrote %s", out)
	}
}

// checkServerNotRoot fails unless the server's process runs, and not as
// root.
func checkServerNotRoot(t *testing.T, pid int) {
	t.Helper()
	if !running(pid) {
		t.Fatalf("the server's process %d does not run", pid)
	}
	checkNotRoot(t, pid)
}

// checkNotRoot fails when process pid runs as root (any of its real,
// effective, saved and file-system user ids: proc(5), Uid).
func checkNotRoot(t *testing.T, pid int) {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if errors.Is(err, os.ErrNotExist) {
		return // a backend or worker that ended since it was listed
	}
	if err != nil {
		t.Errorf("server process %d: %v", pid, err)
		return
	}
	for _, l := range strings.Split(string(b), "\n") {
		if ids, ok := strings.CutPrefix(l, "Uid:"); ok {
			for _, id := range strings.Fields(ids) {
				if id == "0" {
					t.Errorf("server process %d runs as root (Uid: %s)", pid, strings.TrimSpace(ids))
					return
				}
			}
			return
		}
	}
	t.Errorf("server process %d: no Uid line in its status", pid)
}

// checkRecordPrivate fails unless the file (it holds the password) is
// readable by its owner alone.
func checkRecordPrivate(t *testing.T, path string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Errorf("instance record: %v", err)
		return
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600", path, fi.Mode().Perm())
	}
}

// expectRefused runs the probes as nobody and fails for each that got in.
func expectRefused(t *testing.T, nobody *syscall.Credential, probes []probe) {
	t.Helper()
	for _, r := range runAsNobody(t, nobody, probes) {
		switch {
		case r.Err == "":
			t.Errorf("nobody: %s (%s): got in", r.Name, r.Target)
		case !strings.Contains(r.Err, r.Want):
			t.Errorf("nobody: %s: failed for another reason than %q: %s", r.Name, r.Want, r.Err)
		default:
			t.Logf("nobody: %s: refused: %s", r.Name, r.Err)
		}
	}
}

// probe is one attempt another local user makes on a private server: a
// login (pg, mysql, firebird) or opening a file or directory (open).
type probe struct {
	Name, Kind, Target string
	Want               string // what its failure must say
	Err                string // how it failed; "" when it got in
}

// denied is how the kernel refuses a directory to a user (EACCES).
const denied = "permission denied"

// probeEnv names the probes a re-executed test binary is to try
// (TestMain) instead of running tests.
const probeEnv = "DBGAUGE_SERVER_PROBES"

func TestMain(m *testing.M) {
	if spec := os.Getenv(probeEnv); spec != "" {
		os.Exit(runProbes(spec, os.Stdout))
	}
	os.Exit(m.Run())
}

// runProbes tries each probe and writes each result as a JSON line.
func runProbes(spec string, w io.Writer) int {
	var probes []probe
	if err := json.Unmarshal([]byte(spec), &probes); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	enc := json.NewEncoder(w)
	for _, p := range probes {
		var err error
		switch p.Kind {
		case "pg":
			err = pgPing(p.Target)
		case "mysql":
			err = mysqlPing(p.Target)
		case "firebird":
			err = firebirdPing(p.Target)
		case "open":
			var f *os.File
			if f, err = os.Open(p.Target); err == nil {
				f.Close()
			}
		default:
			err = fmt.Errorf("unknown probe kind %q", p.Kind)
		}
		if err != nil {
			p.Err = err.Error()
			if p.Err == "" {
				p.Err = "failed"
			}
		}
		enc.Encode(p)
	}
	return 0
}

// runAsNobody runs the probes in a copy of this test binary as nobody
// (the binary's own directory is not nobody's to enter).
func runAsNobody(t *testing.T, nobody *syscall.Credential, probes []probe) []probe {
	t.Helper()
	dir, err := os.MkdirTemp("", "dbgauge-probe")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	bin := filepath.Join(dir, "probe")
	if err := copyFile(os.Args[0], bin, 0o755); err != nil {
		t.Fatal(err)
	}
	spec, _ := json.Marshal(probes)
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = []string{probeEnv + "=" + string(spec), "PATH=/usr/bin:/bin", "HOME=" + dir}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: nobody}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("probes as nobody: %v: %s", err, stderr.String())
	}
	var got []probe
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		var p probe
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("probe output %q: %v", sc.Text(), err)
		}
		got = append(got, p)
	}
	if len(got) != len(probes) {
		t.Fatalf("%d probes answered of %d: %s %s", len(got), len(probes), out, stderr.String())
	}
	return got
}

// nobodyCred is the credential of the OS user nobody; the test needs root
// to act as another user.
func nobodyCred(t *testing.T) *syscall.Credential {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Fatal("trying the private servers as another local user needs root (make test runs as root)")
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		t.Fatal(err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
}

func pgPing(url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return err
	}
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return err
	}
	return c.Close(ctx)
}

func mysqlPing(dsn string) error {
	db, err := sql.Open("mysql", dsn+"?timeout=5s")
	if err != nil {
		return err
	}
	defer db.Close()
	return db.Ping()
}

func firebirdPing(dsn string) error {
	db, err := sql.Open("firebirdsql", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return db.PingContext(ctx)
}
