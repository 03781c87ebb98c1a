package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
)

// unsharedEnv marks a test binary re-run by unshare in a user and mount
// namespace of its own, where it may mount.
const unsharedEnv = "DBGAUGE_TEST_UNSHARED"

// TestJournalOnAFullDisk runs a Wisconsin run whose run directory is a
// 256 KiB tmpfs its journal outgrows (the database is elsewhere, so that
// it is the journal that fails). The run goes on and ends with exit code 1
// and a line naming the journal, the failure and the entries not written
// by kind; the journal holds whole lines only, each the same as the one a
// run on a roomy disk wrote in its place (nothing written is lost), and
// what it holds plus what the line says was not written is everything that
// run journalled.
func TestJournalOnAFullDisk(t *testing.T) {
	tmp := t.TempDir()
	mnt := filepath.Join(tmp, "full")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("dbgauge-test", mnt, "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV, "size=256k,mode=0755"); err != nil {
		if os.Getenv(unsharedEnv) == "1" {
			t.Fatalf("mount a tmpfs on %s in a namespace of our own: %v", mnt, err)
		}
		inNamespace(t, err)
		return
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(mnt, 0); err != nil {
			t.Errorf("unmount the tmpfs %s: %v", mnt, err)
		}
	})

	// Selections at N=1000 with many repetitions: about 380 KB of
	// journal in a few seconds.
	args := []string{"wisconsin", "--size", "1000", "--reps", "200", "--queries", "1-8"}
	ref := filepath.Join(tmp, "ref")
	if code, _, stderr := runBinary(t, append(args, "--db", "sqlite:"+filepath.Join(tmp, "ref.db"), "--out", ref)...); code != ExitOK {
		t.Fatalf("the run on a roomy disk: exit %d\n%s", code, stderr)
	}
	refLines := journalLines(t, filepath.Join(ref, results.JournalFile))

	out := filepath.Join(mnt, "run")
	code, _, stderr := runBinary(t, append(args, "--db", "sqlite:"+filepath.Join(tmp, "full.db"), "--out", out)...)
	if code != ExitFailure {
		t.Errorf("exit %d, want %d", code, ExitFailure)
	}
	journal := filepath.Join(out, results.JournalFile)
	var line string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "dbgauge: ") {
			line = l
		}
	}
	// The journal's loss comes first; what else the full disk took
	// (results.json, the tables) follows it after "; and ".
	t.Logf("stderr's last line: %s", line)
	m := regexp.MustCompile(`^dbgauge: journal (\S+): write: no space left on device; (\d+) entr(?:y|ies) not written \(([^)]*)\)(?:; and .*)?$`).FindStringSubmatch(line)
	if m == nil || m[1] != journal {
		t.Fatalf("no line says what %s did not take; stderr:\n%s", journal, stderr)
	}
	lost := map[string]int{}
	total := 0
	for _, part := range strings.Split(m[3], ", ") {
		var n int
		var kind string
		if _, err := fmt.Sscanf(part, "%d %s", &n, &kind); err != nil {
			t.Fatalf("%q in %q: %v", part, line, err)
		}
		lost[kind] += n
		total += n
	}
	if strconv.Itoa(total) != m[2] {
		t.Errorf("%q: the kinds add up to %d", line, total)
	}

	got := journalLines(t, journal)
	if len(got) == 0 || total == 0 {
		t.Fatalf("%d entries written, %d not: want the disk to fill during the run", len(got), total)
	}
	written := map[string]int{}
	for i, e := range got {
		written[e.kind]++
		if i >= len(refLines) || e.key != refLines[i].key {
			t.Fatalf("journal line %d is %s, want the reference run's %s", i+1, e.key, refLines[min(i, len(refLines)-1)].key)
		}
	}
	want := map[string]int{}
	for _, e := range refLines {
		want[e.kind]++
	}
	for kind := range want {
		if written[kind]+lost[kind] != want[kind] {
			t.Errorf("%s: %d written + %d not written, want the %d of the run on a roomy disk", kind, written[kind], lost[kind], want[kind])
		}
	}
	for kind := range lost {
		if want[kind] == 0 {
			t.Errorf("%d %s entries reported lost: the run journals none", lost[kind], kind)
		}
	}
	// results.json, rewritten after every query, says the run is not
	// complete whichever version the full disk let through.
	if b, err := os.ReadFile(filepath.Join(out, results.ResultsFile)); err == nil {
		var res struct {
			Complete bool   `json:"complete"`
			Error    string `json:"error"`
		}
		if err := json.Unmarshal(b, &res); err != nil {
			t.Errorf("results.json: %v", err)
		} else if res.Complete {
			t.Errorf("results.json says complete (error %q)", res.Error)
		}
	}
}

// inNamespace runs the calling test again in a user and mount namespace of
// its own (unshare --user --map-root-user --mount), where it is root and
// may mount, and fails the test when that run fails or cannot start.
func inNamespace(t *testing.T, mountErr error) {
	t.Helper()
	cmd := exec.Command("unshare", "--user", "--map-root-user", "--mount", os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), unsharedEnv+"=1")
	b, err := cmd.CombinedOutput()
	if !bytes.Contains(b, []byte("=== RUN")) {
		t.Fatalf("this test needs root to mount a small tmpfs (make test runs as root): mount: %v; unshare --user --map-root-user --mount: %v\n%s", mountErr, err, b)
	}
	if err != nil {
		t.Fatalf("in a namespace of its own (unshare): %v\n%s", err, b)
	}
	t.Logf("in a namespace of its own (unshare):\n%s", b)
}

// runBinary runs dbgauge (this test binary, see TestMain) with args.
func runBinary(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "DBGAUGE_TEST_MAIN=1")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatal(err)
	}
	return code, o.String(), e.String()
}

// journalLine is one journal entry: its kind and what identifies it in a
// deterministic run (an execution's query, organisation, destination and
// repetition; a query's and a load's identity).
type journalLine struct{ kind, key string }

// journalLines reads a journal strictly: whole lines only, each an entry.
func journalLines(t *testing.T, path string) []journalLine {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		t.Errorf("%s ends in a torn line", path)
	}
	var out []journalLine
	for i, l := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		var e results.RawEntry
		var id struct {
			Query        any    `json:"query"`
			Size         int64  `json:"size"`
			Organization string `json:"organization"`
			Destination  string `json:"destination"`
			Rep          int    `json:"rep"`
			Table        string `json:"table"`
		}
		if err := json.Unmarshal(l, &e); err != nil || e.Type == "" || e.Time.IsZero() {
			t.Fatalf("%s line %d is no entry (%v): %s", path, i+1, err, l)
		}
		json.Unmarshal(e.Data, &id)
		out = append(out, journalLine{kind: e.Type, key: fmt.Sprintf("%s %v", e.Type, id)})
	}
	return out
}

// TestFullDiskThenResume: a dsbench sweep whose run directory's disk
// (a 4 MiB tmpfs) is filled to the last byte as scale 1 begins, its
// database on a disk of its own (16 MiB) that scale 2's population
// outgrows. The journal holds space for its entries from the start, so it
// keeps all of scale 1 whole (the journal lost every entry, and
// live.jsonl ended in a torn line); the run ends with exit 1 at scale 2.
// Once space is freed, `dbgauge resume` takes scale 1 back from the
// journal and measures only scale 2 (it measured scale 1 again), and
// live.jsonl holds whole lines only.
func TestFullDiskThenResume(t *testing.T) {
	outDisk, dbDisk := t.TempDir(), t.TempDir()
	out := filepath.Join(mountTmpfs(t, outDisk, "4m"), "run")
	db := filepath.Join(mountTmpfs(t, dbDisk, "16m"), "d.db")
	var filled bool
	lines, _, code := runWatching(t, []string{"dsbench", "--db", "sqlite:" + db, "--mode", "tpcb", "--scales", "1,2",
		"--cycles", "3", "--duration", "1s", "--threads", "2", "--out", out}, func(line string, p *os.Process) {
		if !filled && strings.Contains(line, "scale 1: populating") {
			// Stopped while the disk fills, so that no entry of scale 1
			// can be written before it is full.
			p.Signal(syscall.SIGSTOP)
			fillDisk(t, outDisk, faultCommand{}, p)
			p.Signal(syscall.SIGCONT)
			filled = true
		}
	})
	stderr := strings.Join(lines, "\n")
	if !filled || code != ExitFailure {
		t.Fatalf("disk filled %v; exit %d, want %d; stderr:\n%s", filled, code, ExitFailure, stderr)
	}
	if strings.Contains(stderr, "not written (") {
		t.Errorf("the journal lost entries on the full disk:\n%s", stderr)
	}
	wholeJSONLines(t, filepath.Join(out, "live.jsonl"))
	journal := filepath.Join(out, results.JournalFile)
	first := journalLines(t, journal)
	var kinds []string
	for _, l := range first {
		kinds = append(kinds, l.kind)
	}
	if want := "warning cycle cycle cycle scale unit"; !strings.HasPrefix(strings.Join(kinds, " "), want) {
		t.Errorf("journal entries %v, want scale 1's (%s) first", kinds, want)
	}

	// Space is freed: the filler goes, and the database's disk grows.
	if err := os.Remove(filepath.Join(outDisk, "small", "filler")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("dbgauge-test", filepath.Dir(db), "tmpfs", syscall.MS_REMOUNT|syscall.MS_NOSUID|syscall.MS_NODEV, "size=64m"); err != nil {
		t.Fatalf("grow the database's tmpfs: %v", err)
	}
	code, _, stderr = runBinary(t, "resume", out)
	if code != ExitOK {
		t.Fatalf("resume: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "scale 1      complete before the run was resumed: kept") || strings.Contains(stderr, "scale 1: populating") {
		t.Errorf("resume did not take scale 1 back from the journal; stderr:\n%s", stderr)
	}
	if !strings.Contains(stderr, "scale 2: populating") {
		t.Errorf("resume did not measure scale 2; stderr:\n%s", stderr)
	}
	res := readJSON[results.DSBenchResults](t, filepath.Join(out, results.ResultsFile))
	if !res.Complete || len(res.Scales) != 2 || len(res.Scales[0].Cycles) != 3 || len(res.Scales[1].Cycles) != 3 {
		t.Errorf("results.json: complete %v (%q), scales %d: want both scales of 3 cycles", res.Complete, res.Error, len(res.Scales))
	}
	units := 0
	for _, l := range journalLines(t, journal) {
		if l.kind == "unit" {
			units++
		}
	}
	if units != 2 {
		t.Errorf("the journal holds %d completed units, want scale 1's and scale 2's", units)
	}
	wholeJSONLines(t, filepath.Join(out, "live.jsonl"))
}

// wholeJSONLines fails the test when the file at path holds a line that
// is not a whole JSON object (a torn one).
func wholeJSONLines(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		t.Errorf("%s ends in a torn line: %q", path, b[max(0, len(b)-80):])
	}
	for i, l := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		if !json.Valid(l) {
			t.Errorf("%s line %d is torn: %q", path, i+1, l)
		}
	}
}
