package script

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/dbgauge/dbgauge/internal/workload/script/expr"
)

// A statement's variables are resolved once per client and again only
// when variables are made or dropped (Client.bound): a variable that only
// an \if branch not taken yet defines (\gset) binds NULL before it exists
// and its value from then on, and a restore of a set without it unbinds it
// again.
func TestBoundVariables(t *testing.T) {
	ctx := context.Background()
	e := openURL(t, ctx, "sqlite:"+filepath.Join(t.TempDir(), "v.db"))
	p := mustProgram(t, Options{Protocol: Prepared, Defines: []Define{{"n", "0"}}},
		scriptOf(t, "v.sql", "\\if :n > 0\nSELECT :n * 10 AS later \\gset\n\\endif\nSELECT coalesce(:later, 'none') AS seen \\gset\n\\set n :n + 1\n"))
	c := p.Clients(1)[0]
	if err := c.Setup(ctx, e); err != nil {
		t.Fatal(err)
	}
	run := func(want string) {
		t.Helper()
		if r := c.Run(ctx, nil); r.Err != nil {
			t.Fatal(r.Err)
		}
		if got, _ := c.Variables().Text("seen"); got != want {
			t.Errorf("seen = %q, want %q", got, want)
		}
	}
	run("none")
	run("10")
	run("20")
	var base expr.Variables
	base.SetText("n", "0")
	base.CopyTo(c.Variables())
	run("none")
	run("10")
}
