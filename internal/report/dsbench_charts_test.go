package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

func TestDSBenchCharts(t *testing.T) {
	r := distributed(syntheticDSBench(t))
	files, err := DSBenchCharts(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"rate", "node", "cycle", "freq", "conf"} {
		svg, pngb := files[name+".svg"], files[name+".png"]
		if len(svg) == 0 || len(pngb) == 0 {
			t.Errorf("%s: svg %d bytes, png %d bytes", name, len(svg), len(pngb))
			continue
		}
		paths := 0
		d := xml.NewDecoder(bytes.NewReader(svg))
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s.svg is not XML: %v", name, err)
			}
			if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "path" {
				for _, a := range se.Attr {
					// a data curve is a path with several line segments
					if a.Name.Local == "d" && strings.Count(a.Value, "L") >= 2 {
						paths++
					}
				}
			}
		}
		if paths < 4 {
			t.Errorf("%s.svg has %d multi-segment paths", name, paths)
		}
		img, err := png.Decode(bytes.NewReader(pngb))
		if err != nil {
			t.Errorf("%s.png: %v", name, err)
		} else if b := img.Bounds(); b.Dx() < 500 || b.Dy() < 300 {
			t.Errorf("%s.png is %v", name, b)
		}
	}
	if len(files) != 10 {
		t.Errorf("%d files, want 10", len(files))
	}
	if dir := os.Getenv("DBGAUGE_CHART_DIR"); dir != "" { // to look at them
		for n, b := range files {
			os.WriteFile(dir+"/"+n, b, 0o644)
		}
	}

	// a local run has no node diagram
	r.Nodes, r.Agents = 1, nil
	files, err = DSBenchCharts(r)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := files["node.png"]; ok || len(files) != 8 {
		t.Errorf("local run: %d files, node.png present: %v", len(files), ok)
	}
}

// The default 13 scales, one of them failed (no transaction, all zero):
// every chart still renders, the zero points are left off the log axes.
func TestDSBenchChartsZeroScale(t *testing.T) {
	r := syntheticDSBench(t)
	r.Nodes = 1
	proto := r.Scales[1]
	r.Scales = nil
	for i, x := range []int64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000} {
		s := proto
		s.Scale, s.DBSizeBytes = x, x*15_000_000
		f := 1 / (1 + float64(i*i)/10)
		s.MedianTPS, s.MeanTPS, s.MinTPS, s.MaxTPS = s.MedianTPS*f, s.MeanTPS*f, s.MinTPS*f, s.MaxTPS*f
		s.Cycles = []float64{s.MedianTPS, s.MedianTPS * 1.1, s.MedianTPS * 0.9}
		if x == 500 {
			s = results.ScaleResult{Scale: x, Cycles: []float64{0, 0, 0}}
		}
		r.Scales = append(r.Scales, s)
	}
	files, err := DSBenchCharts(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"rate.png", "cycle.svg", "freq.svg", "conf.png"} {
		if len(files[n]) == 0 {
			t.Errorf("%s missing", n)
		}
	}
	if dir := os.Getenv("DBGAUGE_CHART_DIR"); dir != "" {
		os.WriteFile(dir+"/rate13.png", files["rate.png"], 0o644)
		os.WriteFile(dir+"/cycle13.png", files["cycle.png"], 0o644)
	}
}

// distributed makes the synthetic sweep's nodes remote agents: their
// per-cycle counts and median rates taken from its cycle detail, as a
// distributed run stores them.
func distributed(r *results.DSBenchResults) *results.DSBenchResults {
	for n := 1; n <= r.Nodes; n++ {
		r.Agents = append(r.Agents, results.AgentInfo{Node: n, Name: fmt.Sprintf("node%d", n), Status: "ok"})
	}
	for si := range r.Scales {
		s := &r.Scales[si]
		rates := map[int][]float64{}
		for c := 1; c <= r.Cycles; c++ {
			cn := results.CycleNodes{Cycle: c}
			for _, a := range r.Agents {
				nc := results.NodeCycle{Node: a.Node, Name: a.Name}
				for _, d := range s.CycleDetail {
					if d.Cycle == c && d.Node == a.Node {
						nc.Transactions += d.Committed
						nc.Failed += d.Failed
					}
				}
				nc.TPS = float64(nc.Transactions) / r.DurationS
				rates[a.Node] = append(rates[a.Node], nc.TPS)
				cn.Nodes = append(cn.Nodes, nc)
			}
			s.NodeCycles = append(s.NodeCycles, cn)
		}
		for _, a := range r.Agents {
			nr := results.NodeRate{Node: a.Node, Name: a.Name, MedianTPS: stats.Median(rates[a.Node])}
			for _, c := range s.NodeCycles {
				nr.Transactions += c.Nodes[a.Node-1].Transactions
				nr.Failed += c.Nodes[a.Node-1].Failed
			}
			s.NodeRates = append(s.NodeRates, nr)
		}
	}
	return r
}
