package report

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
	"github.com/dbgauge/dbgauge/internal/stats"
)

// sweepFixture: scans at 10x + 2 ms per thousand tuples, flat indexes.
func sweepFixture() *results.SizeSweepResults {
	r := &results.SizeSweepResults{Header: results.Header{Experiment: "sizesweep", Engine: "sqlite", EngineVersion: "3", Complete: true}, Retrieve: "single",
		Sizes: []int64{1000, 2000, 4000}, Access: []string{"none", "clustered", "nonclustered"}, Reps: 2, Warmup: 1, Basis: "mean"}
	for _, n := range r.Sizes {
		for a, mean := range map[string]float64{"none": 2 + 10*float64(n)/1000, "clustered": 0.1, "nonclustered": 0.11} {
			r.Points = append(r.Points, results.SizeSweepPoint{Size: n, Access: a, ExpectedRows: 1, Plan: "SCAN t\n",
				Summary: stats.Summary{N: 2, Mean: mean, Median: mean, Min: mean, Max: mean}})
		}
	}
	r.Analysis = &results.SizeSweepAnalysis{
		NoIndexFit:                &stats.LineFit{Intercept: 2, Slope: 0.01, R2: 1, N: 3},
		Flatness:                  []results.AccessFlatness{{Access: "clustered", Flatness: stats.Flatness{Ratio: 1.25, FastestSize: 1000, FastestMS: 0.1, SlowestSize: 4000, SlowestMS: 0.125}}},
		NonClusteredOverClustered: &results.SizeSweepRatios{Sizes: r.Sizes, Ratios: stats.Ratios{PerSize: []float64{1.1, 1.1, 1.1}, MeanOfRatios: 1.1, RatioOfMeans: 1.1}},
		Predictions:               []results.AccessPrediction{{Access: "none", Prediction: stats.Prediction{Fit: stats.LineFit{Slope: 0.01, Intercept: 2, N: 2}, Size: 4000, PredictedMS: 42, MeasuredMS: 40, ErrorPct: 5}}},
	}
	return r
}

func TestSizeSweepText(t *testing.T) {
	txt := string(SizeSweepText(sweepFixture()))
	for _, want := range []string{
		"none_mean", "nonclustered_median", // the seed's table, one column pair per method
		"0.01000", "10.00", "1.0000", // slope per tuple and per thousand, R^2
		"1.25",              // flatness
		"average", "1.1000", // Table 10
		"42.0", "40.0", "5.0", // prediction and its error
		"SCAN t", // plan
	} {
		if !strings.Contains(txt, want) {
			t.Errorf("sizesweep.txt lacks %q:\n%s", want, txt)
		}
	}
	if strings.Contains(txt, "INCOMPLETE") {
		t.Error("a complete run marked incomplete")
	}
}

func TestSizeSweepCSV(t *testing.T) {
	// The tables differ in width: one file, rows led by their table's name.
	rd := csv.NewReader(bytes.NewReader(SizeSweepCSV(sweepFixture())))
	rd.FieldsPerRecord = -1
	rows, err := rd.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, r := range rows {
		count[r[0]]++
	}
	// 9 points, 1 fit, 1 flatness, 3 sizes + average, 1 prediction; 5 headers.
	if count["times"] != 9 || count["fit"] != 1 || count["flatness"] != 1 || count["ratios"] != 4 || count["prediction"] != 1 || count["table"] != 5 {
		t.Errorf("rows per table %v", count)
	}
}

func TestSizeSweepChart(t *testing.T) {
	out, err := SizeSweepChart(sweepFixture())
	if err != nil {
		t.Fatal(err)
	}
	if len(out["sizesweep.svg"]) == 0 || len(out["sizesweep.png"]) == 0 {
		t.Fatalf("charts %v", len(out))
	}
	if !strings.Contains(string(out["sizesweep.svg"]), "predicted from smaller sizes") {
		t.Error("the scans' panel lacks the prediction")
	}
	empty := &results.SizeSweepResults{Access: []string{"none"}}
	if out, err := SizeSweepChart(empty); err != nil || len(out) != 0 {
		t.Errorf("nothing measured: %d charts, %v", len(out), err)
	}
}
