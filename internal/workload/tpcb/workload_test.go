package tpcb

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbgauge/dbgauge/internal/dbms"
	_ "github.com/dbgauge/dbgauge/internal/dbms/sqlite"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// The two registrations and their abilities: tpcb the default, with a
// procedure form and tags; select writes nothing, has neither, and still
// drops what an earlier tpcb run left on the same tables.
func TestRegistered(t *testing.T) {
	if workload.Default() != "tpcb" || strings.Join(workload.Tagging(), ",") != "tpcb" {
		t.Errorf("default workload %q, tagging %v: want tpcb both", workload.Default(), workload.Tagging())
	}
	tp, err := workload.New("tpcb")
	if err != nil {
		t.Fatal(err)
	}
	sel, err := workload.New("select")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := tp.(workload.Procedurer); !ok {
		t.Error("tpcb has no procedure form")
	}
	if _, ok := tp.(workload.Tagger); !ok || !tp.Writes() {
		t.Error("tpcb does not tag its writes")
	}
	if _, ok := sel.(workload.Procedurer); ok {
		t.Error("select has a procedure form")
	}
	if _, ok := sel.(workload.Tagger); ok || sel.Writes() {
		t.Error("select tags or writes")
	}
	if _, ok := sel.(workload.Dropper); !ok {
		t.Error("select leaves an earlier run's procedure in place")
	}
	s := tp.Schema(2)
	if got := strings.Join(s.Names(), ","); got != "tpcb_branches,tpcb_tellers,tpcb_accounts,tpcb_history" {
		t.Errorf("tables %s", got)
	}
	if s.Tables[2].Rows != 200_000 || s.Tables[3].Fill != nil || len(s.PrimaryKeys) != 3 || len(s.ForeignKeys) != 2 {
		t.Errorf("schema at scale 2: accounts %d rows, history filled %v, %d primary and %d foreign keys",
			s.Tables[2].Rows, s.Tables[3].Fill != nil, len(s.PrimaryKeys), len(s.ForeignKeys))
	}
	if err := tp.Scale().Check(100_001); err == nil {
		t.Error("scale 100,001 accepted")
	}
}

// A tagged client on SQLite: every transaction it runs carries a new tag,
// which ReadTags finds; the tpcb check counts the history against the
// commits, and select's check wants the history empty.
func TestTaggedClientAndChecks(t *testing.T) {
	ctx := context.Background()
	e, err := dbms.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	tp, _ := workload.New("tpcb")
	for _, tb := range tp.Schema(1).Tables {
		if err := e.CreateTable(ctx, tb.Table); err != nil {
			t.Fatal(err)
		}
		if tb.Fill != nil {
			if _, err := e.Load(ctx, tb.Table, tb.Fill()); err != nil {
				t.Fatal(err)
			}
		}
	}
	tx := e.(dbms.Transactor)
	c := tp.NewClient(workload.ClientConfig{Prepare: true, Isolation: dbms.Serializable, Tagged: true})
	if err := c.Setup(ctx, tx); err != nil {
		t.Fatal(err)
	}
	var seq int64
	s := &workload.Session{Tx: tx, Rand: rand.New(rand.NewPCG(1, 2)), Scale: 1, Client: 7, NextSeq: func() int64 { seq++; return seq }}
	for i := 0; i < 5; i++ {
		s.Seq = 0
		if typ, err := c.Run(ctx, s); typ != 0 || err != nil {
			t.Fatalf("run %d: type %d, %v", i, typ, err)
		}
		if s.Seq != int64(i+1) {
			t.Errorf("run %d wrote tag %d", i, s.Seq)
		}
	}
	tags, err := tp.(workload.Tagger).ReadTags(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	if len(tags) != 1 || len(tags[7]) != 5 {
		t.Errorf("tags read back %v: want client 7's five", tags)
	}
	ck := tp.NewCheck(1)
	if err := ck.Read(ctx, e); err != nil {
		t.Fatal(err)
	}
	if bad := ck.Verify(workload.Commits{Committed: 5, ByType: []int64{5}}); len(bad) != 0 {
		t.Errorf("five commits, five history rows: %v", bad)
	}
	sel, _ := workload.New("select")
	sck := sel.NewCheck(1)
	if err := sck.Read(ctx, e); err != nil {
		t.Fatal(err)
	}
	if bad := sck.Verify(workload.Commits{Committed: 5, ByType: []int64{5}}); len(bad) != 1 || !strings.Contains(bad[0], "history holds 5 rows, but 0 transactions committed") {
		t.Errorf("a SELECT load's check with history rows: %v", bad)
	}
}
