package htmlreport

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The page of a distributed sweep (testdata/runs/dsbench_nodes, written by
// hand: 3 agents, scales 1 and 2, beta lost in scale 2 cycle 2, cycles 2
// and 3 of scale 2 flagged): a Load nodes section with the agents and
// their clock offsets, beta's events in a box and at the top, the node
// diagram, the rates per node, and every cycle with its flag; the
// flagged cycles named under the cycle diagram too.
func TestDSBenchNodesPage(t *testing.T) {
	d := docOf(t, filepath.Join("testdata", "runs", "dsbench_nodes"))
	page := checkPage(t, d)
	var ids []string
	sec := map[string]Section{}
	for _, s := range d.Sections {
		ids = append(ids, s.ID)
		sec[s.ID] = s
	}
	if want := []string{"rate", "cycle", "freq", "conf", "nodes", "node", "node_rates", "node_cycles", "results", "per_transaction"}; !slices.Equal(ids, want) {
		t.Errorf("sections %q, want %q", ids, want)
	}
	lostEvents := "scale 2 cycle 2: missing for 3 s (no heartbeat since 4.1 s into the cycle); scale 2 cycle 2: lost after 10 s"
	checkWarnedOnce(t, d, "load node 2 beta (load-b.example) LOST: "+lostEvents, "flagged scale 2 cycle 2: node beta lost 4.1 s into the cycle", "flagged scale 2 cycle 3")
	checkHeadlines(t, d, map[string]string{"load nodes": "3 agents"})
	if n := headline(t, d, "load nodes").Note; n != "beta lost" {
		t.Errorf("load nodes headline note %q, want beta lost", n)
	}

	nodes := sec["nodes"]
	if nodes.Table == nil || len(nodes.Table.Rows) != 4 {
		t.Fatalf("agents table: %v", nodes.Table)
	}
	want := [][]string{
		{"node", "name", "host", "version", "cores", "clock_offset_ms", "clock_error_ms", "heartbeats_lost", "tps_scale1", "tps_scale2", "status"},
		{"1", "alpha", "load-a.example", "dev", "4", "0.412", "0.051", "0", "415", "395", "ok"},
		{"2", "beta", "load-b.example", "dev", "2", "-1.874", "0.093", "10", "305", "290", "lost"},
		{"3", "gamma", "load-c.example", "dev", "8", "12.305", "0.240", "1", "200", "192", "ok"},
	}
	for i, w := range want {
		if got := nodes.Table.Rows[i][:len(w)]; !slices.Equal(got, w) {
			t.Errorf("agents row %d: %q, want %q", i, got, w)
		}
	}
	box := string(nodes.HTML)
	for _, w := range []string{`class="warn"`, "Nodes that failed", "node 2 beta (load-b.example) LOST: " + lostEvents, "Flagged cycles", "scale 2 cycle 3: ran with 2 of 3 nodes"} {
		if !strings.Contains(box, w) {
			t.Errorf("the Load nodes box lacks %q:\n%s", w, box)
		}
	}
	if !strings.Contains(nodes.Reading, "at most 0.240 ms, gamma") || !strings.Contains(nodes.Reading, "scale 1: the nodes began the scale's 3 cycles at most 1.20 ms apart") {
		t.Errorf("Load nodes reading %q", nodes.Reading)
	}
	if sec["node"].SVG == "" || !strings.Contains(sec["node"].Reading, "from 192 tps (gamma) to 395 tps (alpha); the scale's median rate is 598 tps") {
		t.Errorf("node diagram: svg %d bytes, reading %q", len(sec["node"].SVG), sec["node"].Reading)
	}
	if r := sec["cycle"].Reading; !strings.Contains(r, "Ringed: the flagged cycles (scale 2 cycle 2 and scale 2 cycle 3)") {
		t.Errorf("cycle reading %q does not name the flagged cycles", r)
	}
	cycles := sec["node_cycles"].Table
	flagCol := slices.Index(cycles.Rows[0], "flag")
	flagged := 0
	for _, row := range cycles.Rows[1:] {
		if row[flagCol] != "" {
			flagged++
			if row[0] != "2" || (row[1] != "2" && row[1] != "3") {
				t.Errorf("flag on %q", row)
			}
		}
	}
	if flagged != 5 { // 3 nodes in cycle 2, 2 in cycle 3
		t.Errorf("%d rows flagged, want 5", flagged)
	}
	for _, w := range []string{`<h2 id="nodes">Load nodes</h2>`, lostEvents, `<h2 id="node">Rate per node</h2>`} {
		if !strings.Contains(page, w) {
			t.Errorf("page lacks %q", w)
		}
	}
}

// A local sweep's page has no load nodes: no section, no headline.
func TestDSBenchLocalPageHasNoNodes(t *testing.T) {
	d := docOf(t, filepath.Join("testdata", "runs", "dsbench"))
	for _, s := range d.Sections {
		if strings.HasPrefix(s.ID, "node") {
			t.Errorf("a local run has section %q", s.ID)
		}
	}
	for _, h := range d.Summary {
		if h.Label == "load nodes" {
			t.Errorf("a local run has the headline %q", h.Label)
		}
	}
}
