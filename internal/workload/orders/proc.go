package orders

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// The procedure form (workload.Procedurer): each of the five
// transactions as one call of a procedure in the engine's language
// (dbms.ProcedureLanguage), between the client's BEGIN at the run's
// isolation level and its COMMIT. The client draws the inputs as in the
// statements form (so NURand, the remote lines and payments, the choices
// by name and the audit stay the client's) and passes them; the procedure
// runs the same reads and writes, each row written before it is read
// back, but line by line and district by district (a procedure has no
// round trips to save), and returns what the client shows or counts. docs/orders.md has each procedure.
//
// A New-Order's lines travel as one text of lineWidth-character records,
// one per line in the order the client sorted them (number, item, supply
// warehouse, quantity, each zero-padded): one parameter that every
// language cuts with SUBSTRING, where an array would be PostgreSQL's only
// and fifteen fixed triples would make a 51-parameter call.
//
// Two outcomes are signalled as errors of the procedures' own, which the
// client recognises by a token in the error's message (every engine
// passes the message on, in its own words around it): an unused item
// (signalUnused: the procedure has done the lines before it, the client
// rolls back and returns ErrRollback, as the statements form does), and a
// Delivery whose new order another Delivery removed first
// (signalDelivered: errDelivered, a serialization failure to retry).

var (
	_ workload.Procedurer = (*Workload)(nil)
	_ workload.Dropper    = (*Workload)(nil)
)

// The tokens of the procedures' signals: in the message of the
// exception each language raises (PL/pgSQL's RAISE, SQL/PSM's SIGNAL, the
// name and text of a PSQL exception).
const (
	signalUnused    = "ORDERS_UNUSED_ITEM"
	signalDelivered = "ORDERS_DELIVERED"
)

// procNames are the procedures, by type; procArgs the number of each
// one's arguments (the calls' placeholders).
var (
	procNames = [numTypes]string{"orders_new_order", "orders_payment", "orders_order_status", "orders_delivery", "orders_stock_level"}
	procArgs  = [numTypes]int{6, 9, 5, 2, 3}
)

// A New-Order's line record: its width and where each field starts (from
// 1, as SUBSTRING counts) and how wide it is. Items go to 100,001 (the
// unused one) and warehouses to maxWarehouses: six digits each.
const (
	lineWidth = 16
	lineItem  = 3
	lineWh    = 9
	lineQty   = 15
)

// appendLines appends in's lines as the New-Order procedure takes them.
func appendLines(b []byte, in *newOrderIn) []byte {
	for i := range in.lines[:in.n] {
		l := &in.lines[i]
		b = fmt.Appendf(b, "%02d%06d%06d%02d", l.number, l.item, l.supply, l.quantity)
	}
	return b
}

// procLanguage is the procedures' text in one language: made in Create's
// order, dropped in Drop's; call is a procedure's call with n ?
// placeholders.
type procLanguage struct {
	create, drop []string
	call         func(name string, n int) string
}

// procLanguages are the languages written here, by the name
// dbms.ProcedureLanguage gives.
var procLanguages = map[string]*procLanguage{"plpgsql": plpgsql, "sql/psm": psm, "psql": psql}

// ProcedureFor is the five procedures on e's engine in its language, with
// the engine's defect if it has one; an engine without procedures (or in
// a language written for none here) has no procedure form. It is not the
// default form: the statements form is what the kits this workload is
// compared with run.
func ProcedureFor(e dbms.Engine) (*workload.Procedure, error) {
	if pl, ok := e.(dbms.ProcedureLanguage); ok {
		lang, defect := pl.ProcedureLanguage()
		if l, ok := procLanguages[lang]; ok {
			p := &workload.Procedure{Create: l.create, Drop: l.drop, Defect: defect}
			for t, name := range procNames {
				p.Calls = append(p.Calls, l.call(name, procArgs[t]))
			}
			return p, nil
		}
	}
	return nil, fmt.Errorf("%s has no server-side procedures: use --form statements", e.Name())
}

// Procedure is the five transactions as the engine's procedures.
func (w *Workload) Procedure(e dbms.Engine) (*workload.Procedure, error) { return ProcedureFor(e) }

// DropFirst drops the procedures an earlier run of the procedure form
// left: they depend on the tables.
func (w *Workload) DropFirst(e dbms.Engine) []string {
	if p, err := ProcedureFor(e); err == nil {
		return p.Drop
	}
	return nil
}

// dropEach is drop followed by each procedure's name.
func dropEach(drop string) (out []string) {
	for _, n := range procNames {
		out = append(out, drop+n)
	}
	return out
}

// placeholders is "?, ?, ..." with n of them.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// distCase is the stock's district information column of district v (an
// expression): s_dist_01 for 1, and so on.
func distCase(v string) string {
	var b strings.Builder
	b.WriteString("CASE " + v)
	for d, col := range stockDists {
		b.WriteString(" WHEN " + strconv.Itoa(d+1) + " THEN " + col)
	}
	b.WriteString(" END")
	return b.String()
}

// procSignal is what a procedure's error means to the client: ErrRollback
// for the unused item, errDelivered for a new order delivered by another
// transaction, else err itself (with its class).
func procSignal(err error) error {
	var msg string
	if err != nil {
		msg = err.Error()
	}
	switch {
	case strings.Contains(msg, signalUnused):
		return ErrRollback
	case strings.Contains(msg, signalDelivered):
		return errDelivered
	}
	return err
}

// errNoProcedure is a client of the procedure form given a Procedure
// without a call per type.
var errNoProcedure = errors.New("orders: the procedure form needs one call per transaction type")
