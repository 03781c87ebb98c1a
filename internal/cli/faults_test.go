package cli

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// faultCommand is one command of the fault matrix, as a quick run on
// SQLite: after the stderr line holding every string of after, something
// has been measured and kept, and more is to come, so that a fault
// injected then lands in the middle of the run.
type faultCommand struct {
	name  string
	args  func(tmp string) []string // without --out
	after []string
	// db is the SQLite file the run measures on at that moment.
	db func(tmp string) string
	// readsOnly: once its relations are loaded and made, the command only
	// reads the database, so that a full disk under it strikes before
	// anything is measured (TestDiskFullUnderDatabase has its rows).
	readsOnly bool
}

var faultCommands = []faultCommand{
	{name: "wisconsin", after: []string{"Q1 ", "median"},
		args: func(tmp string) []string {
			return []string{"wisconsin", "--db", "sqlite:" + filepath.Join(tmp, "w.db"), "--size", "200000", "--org", "heap", "--queries", "1,19", "--reps", "5"}
		},
		db: func(tmp string) string { return filepath.Join(tmp, "w.db") }},
	{name: "qac", after: []string{"cardinality 200000", "QE  2/"},
		args: func(tmp string) []string {
			return []string{"qac", "--db", "sqlite:" + filepath.Join(tmp, "q.db"), "--wisconsin", "2", "--cardinalities", "100000,200000,300000", "--qe", "12"}
		},
		db:        func(tmp string) string { return filepath.Join(tmp, "q.db") },
		readsOnly: true},
	{name: "multiuser", after: []string{"users   1  repetition 1/"},
		args: func(tmp string) []string {
			return []string{"multiuser", "--db", "sqlite:" + filepath.Join(tmp, "m.db"), "--tuples", "50000", "--rows", "5000", "--retrieves", "20", "--users", "1,4", "--reps", "4"}
		},
		db:        func(tmp string) string { return filepath.Join(tmp, "m.db") },
		readsOnly: true},
	{name: "abtest", after: []string{"Q9 ", "warm A"},
		args: func(tmp string) []string {
			return []string{"abtest", "--db", "sqlite:" + filepath.Join(tmp, "a.db"), "--size", "40000", "--wisconsin", "9-17", "--reps", "6",
				"--a-session", "PRAGMA cache_size=-100", "--b-session", "PRAGMA cache_size=-2000"}
		},
		db: func(tmp string) string { return filepath.Join(tmp, "a.db") }},
	{name: "speedup", after: []string{"Q1 1% selection", "x=1024"},
		args: func(tmp string) []string {
			return []string{"speedup", "--db", "sqlite:" + filepath.Join(tmp, "s.db"), "--size", "20000", "--page-sizes", "1KiB,4KiB", "--reps", "3"}
		},
		db: func(tmp string) string { return filepath.Join(tmp, "s-page1024.db") }},
}

// fault is one fault of the matrix: inject does it (once, at the chosen
// moment), and words are what results.json, stderr and the page must say.
type fault struct {
	name  string
	words string
	// out, if set, makes the directory the run directory goes under (a
	// small file system of its own).
	out func(t *testing.T, tmp string) string
	// db, if set, makes the directory the embedded database goes under
	// (a file system of its own), given to the command's args.
	db     func(t *testing.T, tmp string) string
	inject func(t *testing.T, tmp string, c faultCommand, p *os.Process)
	// line, if set, sees every later stderr line (to end the fault).
	line func(line string)
}

// TestFaultMatrix runs every command that times queries under every fault
// that can strike a run on an embedded database (docs/faults.md): Ctrl-C,
// SIGTERM, a lock another session holds on the database, and a disk that
// fills under --out. Each row asserts the rule: exit code 1; results.json
// incomplete with the fault in words; no interrupted or failed execution
// stored as a time; what was measured before kept; `dbgauge report`
// rewrites the page afterwards and the page names the fault; nothing
// half-written left (no temporary file, no empty file).
func TestFaultMatrix(t *testing.T) {
	faults := []fault{
		{name: "SIGINT", words: "interrupt", inject: signalFault(syscall.SIGINT)},
		{name: "SIGTERM", words: "terminated", inject: signalFault(syscall.SIGTERM)},
		lockFault(t),
		{name: "disk full", words: "no space left on device", out: mountSmall, inject: fillDisk},
		{name: "disk full under the database", words: "no space left on device", db: mountLarge, inject: fillDisk},
	}
	for _, f := range faults {
		for _, c := range faultCommands {
			if f.db != nil && c.readsOnly {
				continue
			}
			t.Run(f.name+"/"+c.name, func(t *testing.T) { runFaultRow(t, f, c) })
		}
	}
	// dsbench's signals and locks have rows of their own
	// (TestSignalsStopLoad, TestLockDuringConsistencyCheck); a full disk
	// also takes its archive.
	t.Run("disk full/dsbench", func(t *testing.T) { runFaultRow(t, faults[3], dsbenchFaults) })
	// The script workload: its own tables (made by its init script),
	// interrupted, and its run directory's disk full.
	for _, f := range []fault{faults[0], faults[3]} {
		t.Run(f.name+"/dsbench script", func(t *testing.T) { runFaultRow(t, f, dsbenchScriptFaults) })
	}
	// The order-entry workload: interrupted, and its run directory's disk
	// full.
	for _, f := range []fault{faults[0], faults[3]} {
		t.Run(f.name+"/dsbench orders", func(t *testing.T) { runFaultRow(t, f, dsbenchOrdersFaults) })
	}
}

var dsbenchOrdersFaults = faultCommand{name: "dsbench orders", after: []string{"cycle  1/2"},
	args: func(tmp string) []string {
		return []string{"dsbench", "--db", "sqlite:" + filepath.Join(tmp, "d.db"), "--workload", "orders", "--scales", "1,2", "--cycles", "2", "--duration", "2s", "--threads", "2", "--retry"}
	}}

var dsbenchScriptFaults = faultCommand{name: "dsbench script", after: []string{"cycle  1/2"},
	args: func(tmp string) []string {
		scripts, err := writeUserScripts(tmp)
		if err != nil {
			panic(err)
		}
		return append([]string{"dsbench", "--db", "sqlite:" + filepath.Join(tmp, "d.db"), "--scales", "1,2", "--cycles", "2", "--duration", "2s", "--threads", "2"}, scripts...)
	}}

var dsbenchFaults = faultCommand{name: "dsbench", after: []string{"cycle  1/2"},
	args: func(tmp string) []string {
		return []string{"dsbench", "--db", "sqlite:" + filepath.Join(tmp, "d.db"), "--mode", "tpcb", "--scales", "1,2", "--cycles", "2", "--duration", "2s", "--threads", "2"}
	}}

func runFaultRow(t *testing.T, f fault, c faultCommand) {
	tmp := t.TempDir()
	parent := tmp
	if f.out != nil {
		parent = f.out(t, tmp)
	}
	out := filepath.Join(parent, "run")
	dbDir := tmp
	if f.db != nil {
		dbDir = f.db(t, tmp)
	}
	var once sync.Once
	injected := false
	lines, stdout, code := runWatching(t, append(c.args(dbDir), "--out", out), func(line string, p *os.Process) {
		if injected && f.line != nil {
			f.line(line)
		}
		for _, a := range c.after {
			if !strings.Contains(line, a) {
				return
			}
		}
		once.Do(func() { f.inject(t, tmp, c, p); injected = true })
	})
	stderr := strings.Join(lines, "\n")
	if !injected {
		t.Fatalf("no line with %q: the fault was never injected; stderr:\n%s", c.after, stderr)
	}
	if code != ExitFailure {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, ExitFailure, stderr)
	}
	if !strings.Contains(stderr, "dbgauge: ") || !strings.Contains(stderr[strings.LastIndex(stderr, "dbgauge: "):], f.words) {
		t.Errorf("stderr's last error does not say %q:\n%s", f.words, stderr)
	}
	// The disk is given room again, as a user would, to read the run.
	os.Remove(filepath.Join(tmp, "small", "filler"))
	var res runResults
	loadJSON(t, filepath.Join(out, "results.json"), &res)
	if res.Complete || !strings.Contains(res.Error, f.words) {
		t.Errorf("results.json: complete %v, error %q: want the fault (%q) named", res.Complete, res.Error, f.words)
	}
	kept := measuredTimes(t, out)
	if kept == 0 {
		t.Errorf("results.json keeps no time measured before the fault")
	}
	t.Logf("%s under %s: exit %d, %d times kept, error %q", c.name, f.name, code, kept, res.Error)
	if code, _, e := runBinary(t, "report", out); code != ExitOK {
		t.Errorf("dbgauge report %s: exit %d\n%s", out, code, e)
	}
	if page, err := os.ReadFile(filepath.Join(out, "report.html")); err != nil {
		t.Error(err)
	} else if !strings.Contains(string(page), f.words) {
		t.Errorf("report.html does not say %q", f.words)
	}
	noHalfWritten(t, parent)
	for _, l := range strings.Split(stdout, "\n") {
		for _, w := range strings.Fields(l) {
			if strings.HasSuffix(w, ".tar.gz") {
				if _, err := os.Stat(w); err != nil {
					t.Errorf("stdout names %s, which was not written: %q", w, l)
				}
			}
		}
	}
}

// measuredTimes checks every time results.json holds (the numbers of the
// arrays and fields whose names end in _ms, the estimates' medians left
// out; dsbench's cycle rates) and counts them: a time of 0 or less is an execution that did not
// finish, stored as if it had.
func measuredTimes(t *testing.T, dir string) int {
	t.Helper()
	var v any
	loadJSON(t, filepath.Join(dir, "results.json"), &v)
	n := 0
	var walk func(key string, v any)
	walk = func(key string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(k, e)
			}
		case []any:
			for _, e := range x {
				walk(key, e)
			}
		case float64:
			switch key {
			case "samples_ms", "a_ms", "b_ms", "times_ms", "user_ms", "measured_ms", "wall_ms", "cycles":
				n++
				if !(x > 0) {
					t.Errorf("results.json: %s holds %v: an execution that did not finish", key, x)
				}
			}
		}
	}
	walk("", v)
	return n
}

// noHalfWritten fails the test for a temporary file (an atomic write's,
// an archive's, the disk reserve) or an empty file left under dir.
func noHalfWritten(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := d.Name()
		if strings.HasSuffix(name, ".tmp") || strings.Contains(name, ".tar.gz.") || strings.HasPrefix(name, ".dbgauge-") {
			t.Errorf("left behind: %s", p)
		}
		if info, err := d.Info(); err == nil && info.Size() == 0 && !strings.HasSuffix(name, ".db") {
			t.Errorf("empty file left: %s", p)
		}
		return nil
	})
}

func signalFault(sig syscall.Signal) func(*testing.T, string, faultCommand, *os.Process) {
	return func(_ *testing.T, _ string, _ faultCommand, p *os.Process) { p.Signal(sig) }
}

// lockFault takes SQLite's exclusive lock of the database measured and
// lets it go once dbgauge said it met it: the measurement that met the
// lock failed; the run goes on or ends as its command does.
func lockFault(t *testing.T) fault {
	var mu sync.Mutex
	var release func()
	return fault{name: "lock", words: "database is locked",
		inject: func(t *testing.T, tmp string, c faultCommand, _ *os.Process) {
			r := lockSQLite(t, c.db(tmp))
			mu.Lock()
			release = r
			mu.Unlock()
		},
		line: func(line string) {
			mu.Lock()
			defer mu.Unlock()
			if release != nil && strings.Contains(line, "database is locked") {
				release()
				release = nil
			}
		}}
}

// mountSmall mounts a 32 MiB tmpfs under tmp for the run directory.
func mountSmall(t *testing.T, tmp string) string { return mountTmpfs(t, tmp, "32m") }

// mountLarge mounts a 512 MiB tmpfs under tmp for the embedded database:
// room for the largest database of faultCommands until fillDisk fills it.
func mountLarge(t *testing.T, tmp string) string { return mountTmpfs(t, tmp, "512m") }

// mountTmpfs mounts a tmpfs of size under tmp (as root; in a user and
// mount namespace of its own otherwise, see TestJournalOnAFullDisk) and
// unmounts it when the test ends.
func mountTmpfs(t *testing.T, tmp, size string) string {
	mnt := filepath.Join(tmp, "small")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("dbgauge-test", mnt, "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV, "size="+size+",mode=0755"); err != nil {
		if os.Getenv(unsharedEnv) == "1" {
			t.Fatalf("mount a tmpfs on %s in a namespace of our own: %v", mnt, err)
		}
		inNamespace(t, err)
		t.SkipNow() // the row ran (and passed) in the namespace
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(mnt, 0); err != nil {
			t.Errorf("unmount the tmpfs %s: %v", mnt, err)
		}
	})
	return mnt
}

// fillDisk fills the run directory's file system to the last byte.
func fillDisk(t *testing.T, tmp string, _ faultCommand, _ *os.Process) {
	f, err := os.Create(filepath.Join(tmp, "small", "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, size := range []int{1 << 20, 4096, 1} {
		buf := make([]byte, size)
		for {
			if _, err := f.Write(buf); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Fatal(err)
				}
				break
			}
		}
	}
}
