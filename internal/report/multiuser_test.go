package report

import (
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/results"
)

func TestMultiuserTableAndChart(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	oh := 0.0125
	r := &results.MultiuserResults{Header: results.Header{Engine: "postgres"}, Table: "tenktup1_n150000", Tuples: 150000, Retrieves: 10, RowsPerRetrieve: 1, Reps: 3,
		Mode: "goroutines", CPUs: 2, OverheadMS: &oh, Organization: "clustered on unique2, index on unique1",
		Points: []results.MultiuserPoint{
			{Users: 0, N: 3, MedianMS: 0.0125, MinMS: 0.01, MaxMS: 0.02},
			{Users: 1, N: 3, MedianMS: 10, MinMS: 9, MaxMS: 12, PerUserMS: f(10), Thruput: f(1)},
			{Users: 2, N: 3, MedianMS: 12, MinMS: 11, MaxMS: 15, CILowMS: 12, CIHighMS: 12, PerUserMS: f(6), Thruput: f(2 * 10.0 / 12)},
			{Users: 4, N: 3, MedianMS: 30, MinMS: 29, MaxMS: 31, PerUserMS: f(7.5), Thruput: f(4 * 10.0 / 30)},
		}}
	txt := string(MultiuserText(r))
	rows := map[string]string{}
	for _, l := range strings.Split(txt, "\n") {
		if fs := strings.Fields(l); len(fs) == 9 {
			rows[fs[0]] = strings.Join(fs, " ")
		}
	}
	// users, median, min, max, interval, per_user, thruput (2 x 10/12), ideal
	if got := rows["2"]; got != "2 12.0 11.0 15.0 12.0 12.0 6.00 1.67 2" {
		t.Errorf("row of 2 users %q:\n%s", got, txt)
	}
	if got := rows["0"]; got != "0 0.013 0.010 0.020 0.000 0.000 - - -" {
		t.Errorf("row of 0 users %q", got)
	}
	for _, want := range []string{"0.0125 ms, not subtracted", "highest thruput 1.67 at 2 users"} {
		if !strings.Contains(txt, want) {
			t.Errorf("text lacks %q:\n%s", want, txt)
		}
	}
	csv := string(MultiuserCSV(r))
	if !strings.Contains(csv, "users,time_ms,min_ms,max_ms") || !strings.Contains(csv, "\n0,0.013,0.010,0.020,") {
		t.Errorf("csv:\n%s", csv)
	}
	charts, err := MultiuserChart(r)
	if err != nil || len(charts["multiuser.svg"]) == 0 || len(charts["multiuser.png"]) == 0 {
		t.Errorf("chart: %v, %d files", err, len(charts))
	}
	if u, th, ok := MultiuserPeak(&results.MultiuserResults{Points: r.Points[:1]}); ok {
		t.Errorf("peak without thruput: %d %v", u, th)
	}
}
