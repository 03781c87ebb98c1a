package workload

import (
	"encoding/json"
	"strings"
	"testing"
)

// withRegistry runs f on an empty registry and puts the real one back.
func withRegistry(t *testing.T, f func()) {
	t.Helper()
	registry.Lock()
	saved, savedOrder, savedDef := registry.byName, registry.order, registry.def
	registry.byName, registry.order, registry.def = map[string]Meta{}, nil, ""
	registry.Unlock()
	defer func() {
		registry.Lock()
		registry.byName, registry.order, registry.def = saved, savedOrder, savedDef
		registry.Unlock()
	}()
	f()
}

func meta(name string, def bool) Meta {
	return Meta{Name: name, Description: "a test workload", Default: def, New: func() Workload { return nil }}
}

func panics(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg, _ = r.(string)
		}
	}()
	f()
	return ""
}

// The registry: the default first whatever the order of registration,
// unknown names refused with the known ones listed, and each programming
// error (a duplicate, two defaults, a name the flags cannot take, a
// registration without New) a panic that says which.
func TestRegistry(t *testing.T) {
	withRegistry(t, func() {
		Register(meta("kv", false))
		Register(meta("bank", true))
		Register(meta("orders", false))
		if got := strings.Join(Names(), ","); got != "bank,kv,orders" {
			t.Errorf("Names() = %s, want the default first, then the order of registration", got)
		}
		if Default() != "bank" {
			t.Errorf("Default() = %q", Default())
		}
		if got := Tagging(); len(got) != 0 {
			t.Errorf("Tagging() = %v: none of these tags", got)
		}
		if m, err := Lookup("kv"); err != nil || m.Title != "kv" {
			t.Errorf("Lookup(kv) = %+v, %v: want it, titled by its name", m, err)
		}
		if _, err := New("tpcc"); err == nil || !strings.Contains(err.Error(), `unknown workload "tpcc" (known: bank, kv, orders)`) {
			t.Errorf("New(tpcc): %v", err)
		}
		for _, c := range []struct {
			m    Meta
			want string
		}{
			{meta("kv", false), `"kv" registered twice`},
			{meta("ledger", true), `two defaults, "bank" and "ledger"`},
			{meta("Big Name", false), "lower case, no spaces"},
			{Meta{Name: "x", Description: "d"}, "lacks a name, a description or New"},
		} {
			if msg := panics(func() { Register(c.m) }); !strings.Contains(msg, c.want) {
				t.Errorf("Register(%q): panic %q, want one containing %q", c.m.Name, msg, c.want)
			}
		}
	})
}

func TestScaleCheck(t *testing.T) {
	s := Scale{Unit: "10 rows", Max: 100, Why: "a million rows"}
	for _, c := range []struct {
		x    int64
		want string
	}{{0, "must be at least 1"}, {101, "above 100 (a million rows)"}, {1, ""}, {100, ""}} {
		got := ""
		if err := s.Check(c.x); err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("Check(%d) = %q, want %q", c.x, got, c.want)
		}
	}
	if err := (Scale{}).Check(1 << 40); err != nil {
		t.Errorf("no bound: %v", err)
	}
}

// configured is a workload that takes options: only a JSON object.
type configured struct {
	Workload
	got map[string]any
}

func (c *configured) Configure(options json.RawMessage) error {
	return json.Unmarshal(options, &c.got)
}

// Options reach a workload that takes them, are refused for one that
// does not, and a workload's own refusal names it.
func TestNewConfigured(t *testing.T) {
	withRegistry(t, func() {
		Register(meta("kv", true))
		Register(Meta{Name: "script", Description: "options", New: func() Workload { return &configured{} }})
		w, err := NewConfigured("script", json.RawMessage(`{"file": "a.sql"}`))
		if err != nil || w.(*configured).got["file"] != "a.sql" {
			t.Errorf("NewConfigured(script) = %+v, %v: want it configured", w, err)
		}
		if _, err := NewConfigured("script", json.RawMessage(`[1`)); err == nil || !strings.HasPrefix(err.Error(), "the script workload: ") {
			t.Errorf("bad options: %v", err)
		}
		if _, err := NewConfigured("kv", json.RawMessage(`{}`)); err == nil || err.Error() != "the kv workload takes no options" {
			t.Errorf("options for kv: %v", err)
		}
		if w, err := NewConfigured("script", nil); err != nil || w.(*configured).got != nil {
			t.Errorf("no options: %+v, %v", w, err)
		}
	})
}
