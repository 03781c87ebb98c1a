package tpcb

import (
	"strings"
	"testing"
)

func TestCheckCatchesBrokenBalances(t *testing.T) {
	good := Balances{Accounts: 150, Tellers: 150, Branches: 150, HistoryDelta: 50, HistoryRows: 7}
	if bad := good.Check(100, 7); len(bad) != 0 {
		t.Fatalf("consistent balances reported: %v", bad)
	}
	cases := []struct {
		name string
		b    Balances
		want string
	}{
		{"account off by one", Balances{Accounts: 151, Tellers: 150, Branches: 150, HistoryDelta: 50, HistoryRows: 7}, "sum(abalance) = 151"},
		{"teller lost a delta", Balances{Accounts: 150, Tellers: 149, Branches: 150, HistoryDelta: 50, HistoryRows: 7}, "sum(tbalance) = 149"},
		{"branch not its tellers' sum", Balances{Accounts: 150, Tellers: 150, Branches: 150, HistoryDelta: 50, HistoryRows: 7, BadBranches: 1}, "1 branches"},
		{"history row missing", Balances{Accounts: 150, Tellers: 150, Branches: 150, HistoryDelta: 50, HistoryRows: 6}, "history holds 6 rows"},
	}
	for _, c := range cases {
		bad := c.b.Check(100, 7)
		if len(bad) == 0 || !strings.Contains(strings.Join(bad, "; "), c.want) {
			t.Errorf("%s: violations %v, want one containing %q", c.name, bad, c.want)
		}
	}
}

func TestTrimDecimal(t *testing.T) {
	for in, want := range map[string]string{"123": "123", "123.000": "123", "-5.0": "-5", "1.5": "1.5"} {
		if got := trimDecimal(in); got != want {
			t.Errorf("trimDecimal(%q) = %q", in, got)
		}
	}
}
