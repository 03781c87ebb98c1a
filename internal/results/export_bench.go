package results

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// BenchFile is the Go benchmark format export in a run directory.
const BenchFile = "bench.txt"

// BenchLines renders the run directory's measurements in the Go benchmark
// format (golang.org/design/14313-benchmark-format), so that benchstat can
// summarise one run and compare several:
//
//	goos: linux
//	goarch: amd64
//	pkg: dbgauge
//	cpu: AMD EPYC 7B13
//	engine: sqlite 3.46.1
//	Unit tx/s better=higher
//	BenchmarkWisconsin/Q1/N=10000/org=heap/dest=relation-2 1 1234567 ns/op
//	BenchmarkDSBench/mode=tpcb/scale=10-2 5123 512.3 tx/s 1904000 p50-ns/tx ...
//
// One line per repetition (per cycle, per query execution, per interval of
// a latency log), so that benchstat has samples to compute medians and
// intervals from. The name's sub-parts are key=value pairs where they
// have a key (benchstat can project on them: -col /variant), and the -N
// suffix is the number of CPUs of the machine that ran, as GOMAXPROCS is
// for Go benchmarks.
//
// The engine is a file-level configuration line, not part of the names,
// so that the same benchmark on two engines has the same name:
// `benchstat a/bench.txt b/bench.txt` compares two runs of one engine
// (two settings, two machines of the same CPU), and
// `benchstat -col engine a/bench.txt b/bench.txt` compares two engines.
func BenchLines(runDir string) ([]byte, error) {
	s, err := ReadRun(runDir)
	if err != nil {
		return nil, err
	}
	if s.Results == nil {
		return nil, fmt.Errorf("%s: no %s: the run did not finish, nothing to export", runDir, ResultsFile)
	}
	w := &BenchWriter{units: map[string]bool{}}
	if s.Manifest != nil {
		w.procs = s.Manifest.System.CPUs
	}
	k, err := KindOf(s.Experiment)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", runDir, err)
	}
	k.Bench(w, s.Results, runDir)
	out := w.file(benchConfig(s))
	if len(w.damaged) > 0 {
		return out, fmt.Errorf("exported without the latency quantiles of the unreadable interval logs: %s", strings.Join(w.damaged, "; "))
	}
	return out, nil
}

// WriteBench writes BenchLines of runDir into runDir/bench.txt,
// atomically. An unreadable interval log costs only its quantiles: the
// file is written without them and the error says which log.
func WriteBench(runDir string) error {
	b, err := BenchLines(runDir)
	if b == nil {
		return err
	}
	r := &Run{Dir: runDir}
	if werr := r.WriteFile(BenchFile, b); werr != nil {
		return werr
	}
	return err
}

// benchConfig is the file-level configuration: what a comparison must
// hold equal unless told otherwise (benchstat makes one table per
// distinct configuration).
func benchConfig(s *Stored) [][2]string {
	cfg := [][2]string{}
	if m := s.Manifest; m != nil {
		if m.System.Kernel != "" {
			cfg = append(cfg, [2]string{"goos", "linux"}) // the kernel was read from /proc
		}
		cfg = append(cfg, [2]string{"goarch", m.System.Arch})
	}
	cfg = append(cfg, [2]string{"pkg", "dbgauge"})
	if m := s.Manifest; m != nil {
		cfg = append(cfg, [2]string{"cpu", m.System.CPUModel})
	}
	if bc, ok := s.Results.(BenchConfigurer); ok {
		return append(cfg, bc.BenchConfig()...)
	}
	if name, version := s.engineOf(); name != "" {
		cfg = append(cfg, [2]string{"engine", name + " " + version})
	}
	return cfg
}

// BenchConfigurer is implemented by results whose file-level
// configuration lines are not the engine's (an A/B test's two variants,
// storage's file system).
type BenchConfigurer interface {
	BenchConfig() [][2]string
}

// BenchWriter collects benchmark lines and the custom units they use.
type BenchWriter struct {
	procs int
	body  bytes.Buffer
	units map[string]bool
	// damaged names the interval logs that could not be read: their
	// lines go out without the quantiles they would have given.
	damaged []string
}

// BenchValue is one measurement of a line and its unit.
type BenchValue struct {
	V    float64
	Unit string
}

// NS is a duration in milliseconds as a "ns/op"-style value.
func NS(ms float64, unit string) BenchValue { return BenchValue{ms * 1e6, unit} }

// Line writes one result: Benchmark<name>-<procs> <iters> <value unit>...
// Values that are not finite are left out (benchstat cannot use them), and
// a line left without values is not written.
func (w *BenchWriter) Line(name []string, iters int64, vals ...BenchValue) {
	var fields []string
	for _, v := range vals {
		if math.IsNaN(v.V) || math.IsInf(v.V, 0) {
			continue
		}
		fields = append(fields, formatBenchValue(v), v.Unit)
		w.units[v.Unit] = true
	}
	if len(fields) == 0 {
		return
	}
	parts := make([]string, len(name))
	for i, p := range name {
		parts[i] = benchNamePart(p)
	}
	full := "Benchmark" + strings.Join(parts, "/")
	if w.procs > 0 {
		full += "-" + strconv.Itoa(w.procs)
	}
	fmt.Fprintf(&w.body, "%s %d %s\n", full, max(iters, 1), strings.Join(fields, " "))
}

func formatBenchValue(v BenchValue) string {
	x := v.V
	if strings.Contains(v.Unit, "ns") {
		x = math.Round(x) // nanoseconds: finer is noise
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// benchNamePart keeps a name part one field of one sub-benchmark: no
// spaces (the name ends at the first), no slashes (they separate parts).
func benchNamePart(p string) string {
	p = strings.Join(strings.Fields(p), "_")
	p = strings.ReplaceAll(p, "/", "_")
	// One "=" makes a key=value part benchstat can project on; more would
	// be read as another key.
	if k, v, ok := strings.Cut(p, "="); ok {
		p = k + "=" + strings.ReplaceAll(v, "=", "_")
	}
	// A trailing -N would be read as the CPU count of the whole name.
	p = trailingDash.ReplaceAllString(p, "_$1")
	if p == "" {
		return "_"
	}
	return p
}

var trailingDash = regexp.MustCompile(`-([0-9]+)$`)

// file is the whole export: configuration lines, unit metadata, results.
func (w *BenchWriter) file(cfg [][2]string) []byte {
	var b bytes.Buffer
	for _, kv := range cfg {
		if v := strings.Join(strings.Fields(kv[1]), " "); v != "" {
			fmt.Fprintf(&b, "%s: %s\n", kv[0], v)
		}
	}
	var units []string
	for u := range w.units {
		units = append(units, u)
	}
	sort.Strings(units)
	for _, u := range units {
		if better := unitBetter(u); better != "" {
			fmt.Fprintf(&b, "Unit %s better=%s\n", u, better)
		}
	}
	b.Write(w.body.Bytes())
	return b.Bytes()
}

// unitBetter is the direction of improvement of dbgauge's custom units
// (benchstat knows ns/op and MB/s): times are better lower, rates higher.
func unitBetter(u string) string {
	switch {
	case u == "ns/op" || u == "MB/s":
		return ""
	case strings.HasSuffix(u, "/s"):
		return "higher"
	case strings.Contains(u, "ns"):
		return "lower"
	}
	return ""
}

// LogOf reads the interval log name of the run directory; a missing file
// (a run from before the logs) gives none, and so does an unreadable one,
// which is noted in w.damaged.
func (w *BenchWriter) LogOf(runDir, name string) []*hdr.Histogram {
	if name == "" {
		return nil
	}
	path := filepath.Join(runDir, name)
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	hs, err := ReadHistogramLog(path)
	if err != nil {
		w.damaged = append(w.damaged, fmt.Sprintf("%s: %v", name, err))
		return nil
	}
	return hs
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
