package stats

import (
	"math"
	"testing"
)

func TestPerUserThruput(t *testing.T) {
	if v := PerUser(12, 4); v != 3 {
		t.Errorf("per_user 12 ms / 4 users = %v, want 3", v)
	}
	if v := PerUser(5, 0); !math.IsNaN(v) {
		t.Errorf("per_user of no users = %v, want NaN", v)
	}
	cases := []struct {
		users     int
		t1, tn    float64
		want      float64
		undefined bool
	}{
		{1, 10, 10, 1, false},
		{2, 10, 10, 2, false},     // two users in the time of one: ideal
		{4, 10, 20, 2, false},     // 4 x 10 / 20
		{8, 10, 80, 1, false},     // serialised: no gain
		{16, 10, 200, 0.8, false}, // worse than serial
		{0, 10, 1, 0, true},
		{2, 0, 10, 0, true},
		{2, 10, 0, 0, true},
	}
	for _, c := range cases {
		got := Thruput(c.users, c.t1, c.tn)
		if c.undefined != math.IsNaN(got) || !c.undefined && !near(got, c.want) {
			t.Errorf("Thruput(%d, %v, %v) = %v, want %v (undefined %v)", c.users, c.t1, c.tn, got, c.want, c.undefined)
		}
	}
}

func TestSubtractOverhead(t *testing.T) {
	got := SubtractOverhead([]float64{10, 2.5, 1}, 2)
	want := []float64{8, 0.5, 0}
	for i := range want {
		if !near(got[i], want[i]) {
			t.Errorf("SubtractOverhead[%d] = %v, want %v", i, got[i], want[i])
		}
	}
}

// Hand-computed: T(1) median 10 (9,10,12); T(2) median 12 (11,12,15):
// per_user 6, thruput 2 x 10/12 = 1.6667; T(4) median 30: per_user 7.5,
// thruput 4 x 10/30 = 1.3333; zero users: no per_user, no thruput.
func TestMultiuserPoints(t *testing.T) {
	users := []int{0, 1, 2, 4}
	times := [][]float64{{0.1, 0.2, 0.3}, {12, 9, 10}, {11, 15, 12}, {30, 31, 29}}
	ps, err := MultiuserPoints(users, times, 0.95, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ median, perUser, thruput, min, max float64 }{
		{0.2, math.NaN(), math.NaN(), 0.1, 0.3},
		{10, 10, 1, 9, 12},
		{12, 6, 2 * 10.0 / 12, 11, 15},
		{30, 7.5, 4 * 10.0 / 30, 29, 31},
	}
	for i, w := range want {
		p := ps[i]
		same := func(a, b float64) bool { return math.IsNaN(a) && math.IsNaN(b) || near(a, b) }
		if p.Users != users[i] || !same(p.Times.Median, w.median) || !same(p.PerUser, w.perUser) || !same(p.Thruput, w.thruput) ||
			p.Times.Min != w.min || p.Times.Max != w.max {
			t.Errorf("users %d: %+v, want %+v", users[i], p, w)
		}
		if p.CI.Low > p.Times.Median || p.CI.High < p.Times.Median || p.CI.Low < w.min || p.CI.High > w.max {
			t.Errorf("users %d: interval [%v, %v] around median %v, range %v..%v", users[i], p.CI.Low, p.CI.High, p.Times.Median, w.min, w.max)
		}
	}
	if _, err := MultiuserPoints([]int{1}, nil, 0.95, 10, 1); err == nil {
		t.Error("mismatched lengths accepted")
	}
}
