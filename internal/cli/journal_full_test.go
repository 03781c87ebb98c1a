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
