package pgbench

import (
	"bytes"
	"testing"
	"time"
)

// TestComputeByHand: figures worked out by hand from pgbench's formulas
// for a small run of two scripts, printed as pgbench would.
func TestComputeByHand(t *testing.T) {
	ms := time.Millisecond
	var lat, a, b Moments
	for _, d := range []time.Duration{1 * ms, 3 * ms, 1 * ms, 3 * ms} {
		lat.Add(d)
	}
	a.Add(1 * ms)
	for _, d := range []time.Duration{3 * ms, 1 * ms, 3 * ms} {
		b.Add(d)
	}
	var cmd Moments
	cmd.Add(500 * time.Microsecond)
	cmd.Add(1500 * time.Microsecond)
	f := &Figures{
		Scale: 1, Protocol: Simple, Clients: 2, Threads: 1, MaxTries: 1, Transactions: 2,
		Progress: time.Second, PerCommand: true,
		Scripts: []ScriptFigures{
			{Name: "a.sql", Weight: 1, Commands: []CommandFigures{{Text: "SELECT 1;"}}},
			{Name: "b.sql", Weight: 3, Commands: []CommandFigures{{Text: "SELECT 2;"}}},
		},
	}
	f.Compute(&Totals{
		Counts: Counts{Processed: 4}, Latency: lat, Duration: 2 * time.Second, ConnInitial: 1500 * time.Microsecond,
		Scripts: []ScriptTotals{
			{Counts: Counts{Processed: 1}, Latency: a, Commands: []CommandTotals{{Latency: cmd}}},
			{Counts: Counts{Processed: 3}, Latency: b, Commands: []CommandTotals{{Failures: 0}}},
		},
	})
	want := `transaction type: multiple scripts
scaling factor: 1
query mode: simple
number of clients: 2
number of threads: 1
maximum number of tries: 1
number of transactions per client: 2
number of transactions actually processed: 4/4
number of failed transactions: 0 (0.000%)
latency average = 2.000 ms
latency stddev = 1.000 ms
initial connection time = 1.500 ms
tps = 2.000000 (without initial connection time)
SQL script 1: a.sql
 - weight: 1 (targets 25.0% of total)
 - 1 transactions (25.0% of total, tps = 0.500000)
 - number of failed transactions: 0 (0.000%)
 - latency average = 1.000 ms
 - latency stddev = 0.000 ms
 - statement latencies in milliseconds and failures:
         1.000           0  SELECT 1;
SQL script 2: b.sql
 - weight: 3 (targets 75.0% of total)
 - 3 transactions (75.0% of total, tps = 1.500000)
 - number of failed transactions: 0 (0.000%)
 - latency average = 2.333 ms
 - latency stddev = 0.943 ms
 - statement latencies in milliseconds and failures:
         0.000           0  SELECT 2;
`
	var got bytes.Buffer
	if err := Report(&got, f); err != nil {
		t.Fatal(err)
	}
	if got.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", got.String(), want)
	}

	// Without -P, -R or -L pgbench does not time each transaction: the
	// average is the run's time per transaction of a client, 2 s x 2
	// clients / 4 = 1000 ms. With -C the connection time is the average
	// over the transactions, 8 ms / 4.
	f.Progress, f.Connect = 0, true
	f.Compute(&Totals{Counts: Counts{Processed: 4}, Duration: 2 * time.Second, ConnTotal: 8 * ms})
	if f.LatencyAverage != 1000 || f.ConnectionTime != 2 {
		t.Errorf("latency average %v ms (want 1000), connection time %v ms (want 2)", f.LatencyAverage, f.ConnectionTime)
	}
}

// TestProgressBetweenByHand: the interval's transactions only.
func TestProgressBetweenByHand(t *testing.T) {
	start := time.Unix(1000, 0)
	var l0, l1 Moments
	l0.Add(10 * time.Millisecond)
	l1 = l0
	for _, d := range []time.Duration{2, 4, 2, 4} {
		l1.Add(d * time.Millisecond)
	}
	last := Snapshot{At: start.Add(time.Second), Counts: Counts{Processed: 1}, Latency: l0}
	now := Snapshot{At: start.Add(3 * time.Second), Counts: Counts{Processed: 5, SerializationFailures: 2, Retried: 1, Retries: 3}, Latency: l1}
	o := &Options{MaxTries: 3}
	var b bytes.Buffer
	if err := ProgressLine(&b, ProgressBetween(o, start, last, now)); err != nil {
		t.Fatal(err)
	}
	// 4 transactions in 2 s, 3 ms on average, 1 ms deviation.
	want := "progress: 3.0 s, 2.0 tps, lat 3.000 ms stddev 1.000, 2 failed, 1 retried, 3 retries\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
}
