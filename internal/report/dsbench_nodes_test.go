package report

import (
	"bytes"
	"encoding/csv"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"

	"github.com/dbgauge/dbgauge/internal/golden"
	"github.com/dbgauge/dbgauge/internal/results"
)

// The fixture of a distributed sweep, written by hand (the README beside
// it says how): 3 agents (alpha, beta, gamma), TPC-B at scales 1 and 2,
// 3 cycles of D = 10 s each. Its counts, by hand:
//
//	scale 1  alpha 4100 4200 4150 -> 410 420 415 tps, median 415, 12450 tx, 0 failed
//	         beta  3000 3100 3050 -> 300 310 305 tps, median 305,  9150 tx, 1 failed
//	         gamma 2000 2050 1950 -> 200 205 195 tps, median 200,  6000 tx, 0 failed
//	         27600 tx and 1 failed, as the scale's columns 8 and 9
//	scale 2  alpha 3900 3950 4000 -> median 395, 11850 tx, 0 failed
//	         beta  2900, then lost in cycle 2 (0, lost), gone in cycle 3
//	               -> its median 290 over the cycle it ran (the cycle it was lost in has no rows), 2900 tx, 2 failed
//	         gamma 1900 1920 1980 -> median 192, 5800 tx, 1 failed
//	         20550 tx and 3 failed; cycles 2 and 3 flagged
//
// Start lags give spreads of 0.8, 1.2, 0.9 ms at scale 1 and 1.1, 0.8,
// 0.3 ms at scale 2: at most 1.2 (cycle 2) and 1.1 ms (cycle 1).
const nodesRun = "htmlreport/testdata/runs/dsbench_nodes"

func readNodesRun(t *testing.T) *results.DSBenchResults {
	t.Helper()
	s, err := results.ReadRun(nodesRun)
	if err != nil {
		t.Fatal(err)
	}
	return s.Results.(*results.DSBenchResults)
}

// The node diagram's values: one line per node, by name (a lost node
// says so), at the run's median rates, bars from the cycles the node
// ran to the end, and the total.
func TestDSBenchNodeLines(t *testing.T) {
	lines, total := nodeLines(readNodesRun(t))
	var labels []string
	for _, l := range lines {
		labels = append(labels, l.Label)
	}
	if want := []string{"alpha", "beta (lost)", "gamma"}; !slices.Equal(labels, want) {
		t.Fatalf("lines %q, want %q", labels, want)
	}
	xy := func(pts ...float64) plotter.XYs {
		var out plotter.XYs
		for i := 0; i < len(pts); i += 2 {
			out = append(out, plotter.XY{X: pts[i], Y: pts[i+1]})
		}
		return out
	}
	for i, want := range []plotter.XYs{xy(1, 415, 2, 395), xy(1, 305, 2, 290), xy(1, 200, 2, 192)} {
		if !slices.Equal(lines[i].Median, want) {
			t.Errorf("%s: medians %v, want %v", labels[i], lines[i].Median, want)
		}
	}
	// beta at scale 2: only cycle 1 (290 tps) counts for its bar
	if m := lines[1].Mean; len(m) != 2 || m[1].Y != 290 || lines[1].Errs[1].Low != 0 || lines[1].Errs[1].High != 0 {
		t.Errorf("beta's means %v, bars %v: want 290 with no bar at scale 2", m, lines[1].Errs)
	}
	// alpha at scale 1: mean 415 of 410..420
	if e := lines[0].Errs[0]; lines[0].Mean[0].Y != 415 || e.Low != 5 || e.High != 5 {
		t.Errorf("alpha at scale 1: mean %v, bar %+v; want 415, 410..420", lines[0].Mean[0], e)
	}
	if want := xy(1, 915, 2, 598); !slices.Equal(total, want) {
		t.Errorf("total %v, want %v", total, want)
	}
}

var (
	lineStroke  = regexp.MustCompile(`stroke:(#[0-9A-Fa-f]{6});stroke-width:1.5"`)
	totalStroke = regexp.MustCompile(`stroke:#000000;stroke-width:2.5"`)
)

// A distributed run's derived files: node.svg and node.png with one line
// (one colour) per node and the total, the three CSV files; a local run's
// files have none of them.
func TestDSBenchNodeFiles(t *testing.T) {
	files, err := Files("dsbench", readNodesRun(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"node.svg", "node.png", "nodes.csv", "agents.csv", "node_cycles.csv", "cycle.svg", "results.txt"} {
		if len(files[f]) == 0 {
			t.Errorf("%s not written", f)
		}
	}
	colours := map[string]bool{}
	for _, m := range lineStroke.FindAllStringSubmatch(string(files["node.svg"]), -1) {
		colours[m[1]] = true
	}
	if len(colours) != 3 || len(totalStroke.FindAllString(string(files["node.svg"]), -1)) == 0 {
		t.Errorf("node.svg: lines in %d colours (want 3, one per node), total drawn: %v", len(colours), totalStroke.MatchString(string(files["node.svg"])))
	}

	s, err := results.ReadRun("htmlreport/testdata/runs/dsbench")
	if err != nil {
		t.Fatal(err)
	}
	local, err := Files("dsbench", s.Results)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"node.svg", "node.png", "nodes.csv", "agents.csv", "node_cycles.csv"} {
		if _, ok := local[f]; ok {
			t.Errorf("a local run has %s", f)
		}
	}
	if bytes.Contains(local["results.txt"], []byte("load nodes")) {
		t.Errorf("a local run's results.txt has load nodes")
	}
}

// results.txt of a distributed run: the 23-column table exactly as the
// run without its nodes writes it, then the rate per node and scale as
// gnuplot's data block 1, which adds up to columns 8 and 9, the largest
// start spread per scale, the flagged cycles, what happened to beta, and
// the agents with their clock offsets.
func TestDSBenchNodesText(t *testing.T) {
	r := readNodesRun(t)
	text := string(DSBenchText(r))
	local := *r
	local.Agents = nil
	if prefix := string(DSBenchText(&local)); !strings.HasPrefix(text, prefix) || !strings.HasPrefix(text[len(prefix):], "\n\n# load nodes") {
		t.Fatalf("results.txt does not begin with the table of the run without nodes, followed by two empty lines and the nodes")
	}
	blocks := strings.Split(text, "\n\n\n")
	if len(blocks) != 2 {
		t.Fatalf("%d data blocks, want 2", len(blocks))
	}
	var rows [][]string
	for _, l := range strings.Split(blocks[1], "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			rows = append(rows, strings.Fields(l))
		}
	}
	want := [][]string{
		// nodes numbered from 1, as the agents' own logs number them
		{"1", "1", "alpha", "415", "12450", "0"}, {"1", "2", "beta", "305", "9150", "1"}, {"1", "3", "gamma", "200", "6000", "0"},
		{"2", "1", "alpha", "395", "11850", "0"}, {"2", "2", "beta", "290", "2900", "2"}, {"2", "3", "gamma", "192", "5800", "1"},
	}
	if !slices.EqualFunc(rows, want, slices.Equal) {
		t.Errorf("rate per node and scale:\n got %q\nwant %q", rows, want)
	}
	sums := map[string][2]int64{}
	for _, row := range rows {
		tx, _ := strconv.ParseInt(row[4], 10, 64)
		failed, _ := strconv.ParseInt(row[5], 10, 64)
		sums[row[0]] = [2]int64{sums[row[0]][0] + tx, sums[row[0]][1] + failed}
	}
	for _, s := range r.Scales {
		if got := sums[strconv.FormatInt(s.Scale, 10)]; got != [2]int64{s.Transactions, s.Failed} {
			t.Errorf("scale %d: the nodes add up to %v, the scale has %d transactions and %d failed", s.Scale, got, s.Transactions, s.Failed)
		}
	}
	for _, w := range []string{
		"# scale 1: the nodes began the scale's 3 cycles at most 1.20 ms apart (cycle 2)\n",
		"# scale 2: the nodes began the scale's 3 cycles at most 1.10 ms apart (cycle 1)\n",
		"# FLAGGED scale 2 cycle 2: node beta lost 4.1 s into the cycle",
		"# FLAGGED scale 2 cycle 3: ran with 2 of 3 nodes",
		"# node 2 beta (load-b.example) LOST: scale 2 cycle 2: missing for 3 s",
	} {
		if !strings.Contains(blocks[1], w) {
			t.Errorf("results.txt lacks %q", w)
		}
	}
	agents := map[string][]string{}
	for _, l := range strings.Split(blocks[1], "\n") {
		if f := strings.Fields(strings.TrimPrefix(l, "#")); len(f) > 10 && (f[1] == "alpha" || f[1] == "beta" || f[1] == "gamma") {
			agents[f[1]] = f
		}
	}
	// node name host version cores offset error heartbeats tps1 tps2 status events...
	for name, w := range map[string][]string{
		"alpha": {"1", "alpha", "load-a.example", "dev", "4", "0.412", "0.051", "0", "415", "395", "ok"},
		"beta":  {"2", "beta", "load-b.example", "dev", "2", "-1.874", "0.093", "10", "305", "290", "lost", "scale"},
		"gamma": {"3", "gamma", "load-c.example", "dev", "8", "12.305", "0.240", "1", "200", "192", "ok", "scale"},
	} {
		if got := agents[name]; len(got) < len(w) || !slices.Equal(got[:len(w)], w) {
			t.Errorf("agent %s: %q, want %q...", name, got, w)
		}
	}
}

// node_cycles.csv holds every cycle on every node at full precision: 17
// rows (beta is gone from scale 2 cycle 3), the lost one marked, the
// flagged cycles with their flag on each row.
func TestDSBenchNodeCyclesCSV(t *testing.T) {
	files := DSBenchNodeFiles(readNodesRun(t))
	rows, err := csv.NewReader(bytes.NewReader(files["node_cycles.csv"])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 18 {
		t.Fatalf("%d rows, want a header and 17", len(rows))
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	flagged, lost := map[string]bool{}, 0
	for _, row := range rows[1:] {
		if row[col["flag"]] != "" {
			flagged[row[col["scale"]]+"/"+row[col["cycle"]]] = true
		}
		if row[col["lost"]] == "LOST" {
			lost++
			if row[col["name"]] != "beta" || row[col["scale"]] != "2" || row[col["cycle"]] != "2" {
				t.Errorf("lost: %q", row)
			}
		}
	}
	if lost != 1 || len(flagged) != 2 || !flagged["2/2"] || !flagged["2/3"] {
		t.Errorf("%d lost rows, flagged cycles %v: want beta lost in scale 2 cycle 2, cycles 2/2 and 2/3 flagged", lost, flagged)
	}
	if !bytes.Contains(files["agents.csv"], []byte("2,beta,load-b.example,dev,2,-1.874,0.093,10,305,290,lost,scale 2 cycle 2: missing for 3 s")) {
		t.Errorf("agents.csv:\n%s", files["agents.csv"])
	}
}

// Counts that do not add up are named, by scale; the fixture's do.
func TestDSBenchNodeSums(t *testing.T) {
	r := readNodesRun(t)
	if got := DSBenchNodeSums(r); len(got) != 0 {
		t.Fatalf("the fixture's counts add up, but: %q", got)
	}
	r.Scales[1].NodeRates[0].Transactions++
	r.Scales[0].NodeCycles[2].Nodes[1].Failed++
	got := DSBenchNodeSums(r)
	if len(got) != 2 || !strings.HasPrefix(got[0], "scale 1: the nodes' cycles count 27600 transactions and 2 failed trials, the scale 27600 and 1") ||
		!strings.HasPrefix(got[1], "scale 2: the nodes' rates count 20551 transactions") {
		t.Errorf("sums: %q", got)
	}
	if !strings.Contains(string(DSBenchText(r)), "# DOES NOT ADD UP: scale 2") {
		t.Errorf("results.txt does not say the counts do not add up")
	}
}

// TestGoldenNodeTables compares results.txt of the distributed fixture
// with testdata/golden/dsbench_nodes_results.txt.golden (rewrite with
// -update, as TestGoldenTables).
func TestGoldenNodeTables(t *testing.T) {
	golden.Check(t, filepath.Join("testdata", "golden", "dsbench_nodes_results.txt.golden"), DSBenchText(readNodesRun(t)))
}
