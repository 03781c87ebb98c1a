package nodes

import "testing"

func TestEstimate(t *testing.T) {
	// The agent's clock runs 5 ms ahead of the master's. Sample 2 has the
	// lowest round trip (400 ns): the master read 1_000_000 at agent time
	// 6_000_100 +- 200, so the offset is 5_000_100 - ... worked out below.
	samples := []clockSample{
		{Sent: 6_000_000, Received: 6_002_000, Master: 1_000_900},  // rtt 2000
		{Sent: 6_000_000, Received: 6_000_400, Master: 1_000_150},  // rtt 400: mid 6_000_200
		{Sent: 6_000_000, Received: 6_001_000, Master: 1_000_100},  // rtt 1000
		{Sent: 6_000_000, Received: 6_000_800, Master: 999_000},    // rtt 800
		{Sent: 6_000_000, Received: 6_300_000, Master: 1_1000_000}, // rtt 300000
	}
	got, err := estimate(samples)
	if err != nil {
		t.Fatal(err)
	}
	// mid 6_000_200 - master 1_000_150 = 5_000_050 ns; error 400/2 = 200 ns.
	want := Offset{Offset: 5_000_050, Error: 200}
	if got != want {
		t.Fatalf("estimate = %+v, want %+v", got, want)
	}
	if _, err := estimate(nil); err == nil {
		t.Fatal("estimate of no sample: no error")
	}
}
