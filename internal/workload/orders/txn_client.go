package orders

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// The transaction types, in the order of Types: a client's Run returns
// one of these.
const (
	NewOrder = iota
	Payment
	OrderStatus
	Delivery
	StockLevel
	numTypes
)

// TxnNames are the types' names in tables and results.
var TxnNames = [numTypes]string{"new-order", "payment", "order-status", "delivery", "stock-level"}

// DefaultMix is the spec's minimum mix as the kits run it (clause 5.2.3:
// at least 43% Payment, 4% each of the last three; New-Order the rest),
// weights in percent.
var DefaultMix = [numTypes]int{45, 43, 4, 4, 4}

// ErrRollback is what Run returns for a New-Order that rolled back by
// design: its last line names an unused item (clause 2.4.2.3), which 1%
// of New-Orders do. The client has rolled the transaction back itself
// (the caller's rollback finds none open) and counted it (Audit). The
// transaction is complete, not failed: whoever counts must count it as a
// New-Order rolled back, time it as a New-Order, and never run it again:
// a retry repeats the inputs, so it would roll back again, for ever.
var ErrRollback = errors.New("new-order rolled back: unused item")

// Types are the transaction types with the weights of mix and their
// response-time limits, in the order of the type constants
// (Workload.Types).
func Types(mix [numTypes]int) []workload.Type {
	out := make([]workload.Type, numTypes)
	for i := range out {
		out[i] = workload.Type{Name: TxnNames[i], Weight: mix[i], Limit: workload.Limit{Percentile: 90, Max: Limits[i]}}
	}
	return out
}

// Limits are the types' 90th-percentile response-time limits (clause
// 5.2.5.4): 5 s, and 20 s for Stock-Level. Delivery runs in line here,
// not queued: its limit is the terminal's 5 s over the whole transaction,
// stricter than the spec's 80 s for a queued delivery to complete.
var Limits = [numTypes]time.Duration{5 * time.Second, 5 * time.Second, 5 * time.Second, 5 * time.Second, 20 * time.Second}

// CheckMix refuses a mix no client can draw from: a negative weight, or
// none above zero. The error names the type; the caller names the flag.
func CheckMix(mix [numTypes]int) error {
	total := 0
	for i, w := range mix {
		if w < 0 {
			return fmt.Errorf("%s has weight %d: weights are 0 or more", TxnNames[i], w)
		}
		total += w
	}
	if total == 0 {
		return fmt.Errorf("every weight is 0: give at least one type a weight")
	}
	return nil
}

// ClientOptions are what a client needs beyond the run's ClientConfig.
type ClientOptions struct {
	// Dims are the sizes of the database (SpecDims(ClientConfig.Scale)
	// when zero).
	Dims Dims
	// C are the run's NURand constants (RunConstants), the same for every
	// client of the run.
	C Constants
	// Mix are the types' weights (DefaultMix when none is above zero;
	// CheckMix says whether a user's mix is one).
	Mix [numTypes]int
	// TimeStatements hands each statement's time to Session.Timer, by
	// its index in StatementNames: for a workload that declares them
	// (workload.Statementer). It costs two readings of the clock per
	// statement.
	TimeStatements bool
}

// Client runs one terminal's transactions in the client-statements form:
// a type drawn by weight, its inputs drawn from the session's generator,
// its statements through the session's engine (dbms.Transactor for the
// writes and one-integer reads, dbms.TextQuerier for reads of several
// columns or rows). It is one driver thread's; it counts what the
// input-distribution audit needs (Audit).
type Client struct {
	cfg   workload.ClientConfig
	dims  Dims
	k     Constants
	mix   [numTypes]int
	total int
	// wLo..wHi are the warehouses the client owns (Home); district is its
	// own district for Stock-Level (clause 2.8.1.1).
	wLo, wHi int64
	district int64

	reads [numReads]string // readSQL with the engine's placeholders
	tq    dbms.TextQuerier // the session of the transaction under way
	res   dbms.TextResult
	args  []any
	buf   []byte
	// oneRow: the engine's INSERT takes one row of VALUES
	// (dbms.SingleRowValues), so New-Order inserts its lines one by one.
	oneRow bool
	// A New-Order's lines: the prices read, the stock's district
	// information, the amounts as text.
	prices   [MaxLines]int64
	distInfo [MaxLines]string
	amounts  [MaxLines][]byte
	// found are a Delivery's orders, one per district.
	found []delivered

	typ int
	no  newOrderIn
	pay paymentIn
	os  orderStatusIn
	del deliveryIn
	sl  stockLevelIn
	// lowStock is the last Stock-Level's count (its output).
	lowStock int64

	audit Audit
	// timer takes the statements' times (ClientOptions.TimeStatements).
	timer workload.StatementTimer
	timed bool

	// tag is the Payment's tag as its history row carries it (tags.go),
	// "" when the run does not tag.
	tag string

	// pending is what the attempt under way adds to the audit once it
	// commits (or rolls back by design).
	pending Audit

	// proc is the procedure form's (ClientConfig.Procedure: each
	// transaction one call of a procedure; proc.go, proc_client.go).
	proc procState
}

var _ workload.Client = (*Client)(nil)

// NewClient makes client cfg.Client of cfg.Clients: its warehouses are
// Home(cfg.Client, cfg.Clients, o.Dims.Warehouses).
func NewClient(cfg workload.ClientConfig, o ClientOptions) *Client {
	c := &Client{cfg: cfg, dims: o.Dims, k: o.C, mix: o.Mix, timed: o.TimeStatements}
	if c.dims == (Dims{}) {
		c.dims = SpecDims(max(cfg.Scale, 1))
	}
	if CheckMix(c.mix) != nil {
		c.mix = DefaultMix
	}
	for _, w := range c.mix {
		c.total += w
	}
	clients := max(cfg.Clients, 1)
	c.wLo, c.wHi = Home(cfg.Client%clients, clients, c.dims.Warehouses)
	c.district = int64(cfg.Client%DistrictsPerWarehouse) + 1
	return c
}

// Audit is what a client counts for the input-distribution audit of
// clause 9.2 (and the skipped deliveries of 2.7.4.2): completed
// transactions only, each once whatever its retries.
type Audit struct {
	// NewOrders completed, committed or rolled back by design
	// (Rollbacks), with their lines (Lines, 5..15 each) and the lines
	// supplied by another warehouse (RemoteLines).
	NewOrders, Rollbacks, Lines, RemoteLines int64
	// Payments committed, those whose customer is of another warehouse
	// (RemotePayments), those that named the customer by last name.
	Payments, RemotePayments, PaymentsByName int64
	// OrderStatuses committed, and those by last name.
	OrderStatuses, OrderStatusesByName int64
	// Deliveries committed, and the districts they found without a new
	// order (SkippedDistricts; 10 districts per Delivery).
	Deliveries, SkippedDistricts int64
	StockLevels                  int64
}

// Add adds b's counts to a (clients' counts merged).
func (a *Audit) Add(b Audit) {
	bs := b.counts()
	for i, p := range a.counts() {
		*p += *bs[i]
	}
}

// counts are a's fields, in one order, for arithmetic on all of them.
func (a *Audit) counts() [12]*int64 {
	return [...]*int64{&a.NewOrders, &a.Rollbacks, &a.Lines, &a.RemoteLines, &a.Payments, &a.RemotePayments, &a.PaymentsByName,
		&a.OrderStatuses, &a.OrderStatusesByName, &a.Deliveries, &a.SkippedDistricts, &a.StockLevels}
}

// Audit returns the client's counts so far. It must not run while the
// client's thread runs a transaction (read it between cycles).
func (c *Client) Audit() Audit { return c.audit }

// Setup finds the session's TextQuerier, writes the reads with its
// placeholders and, when the run prepares, prepares every statement.
func (c *Client) Setup(ctx context.Context, tx dbms.Transactor) error {
	tq, ok := tx.(dbms.TextQuerier)
	if !ok {
		return errNoText
	}
	c.tq = tq
	_, c.oneRow = tx.(dbms.SingleRowValues)
	for i, s := range readSQL {
		c.reads[i] = withPlaceholders(s, tq)
	}
	if c.cfg.Procedure != nil {
		return c.setupProcedure(ctx, tq)
	}
	if !c.cfg.Prepare {
		return nil
	}
	inserts := sqlInsertLines[1:]
	if c.oneRow {
		inserts = inserts[:1]
	}
	for _, s := range append(txSQL[:len(txSQL):len(txSQL)], inserts...) {
		if err := tx.Prepare(ctx, s); err != nil {
			return fmt.Errorf("prepare %q: %w", s, err)
		}
	}
	for _, s := range c.reads {
		if err := tq.PrepareText(ctx, s); err != nil {
			return fmt.Errorf("prepare %q: %w", s, err)
		}
	}
	return nil
}

// Run runs one attempt of a transaction: on the first attempt it draws
// the type and its inputs, a retry repeats them.
func (c *Client) Run(ctx context.Context, s *workload.Session) (int, error) {
	if c.reads[0] == "" {
		if err := c.Setup(ctx, s.Tx); err != nil {
			return 0, err
		}
	}
	if s.Attempt == 0 {
		c.draw(s.Rand)
	}
	c.pending = Audit{}
	if c.timed {
		c.timer = s.Timer
	}
	if c.cfg.Procedure != nil {
		return c.typ, c.counted(c.callProcedure(ctx, s))
	}
	var err error
	switch c.typ {
	case NewOrder:
		err = c.newOrder(ctx, s.Tx)
	case Payment:
		c.tag = ""
		if c.cfg.Tagged {
			c.tag = tagText(s.TakeTag())
		}
		err = c.payment(ctx, s.Tx)
	case OrderStatus:
		err = c.orderStatus(ctx, s.Tx)
	case Delivery:
		err = c.delivery(ctx, s.Tx)
	default:
		err = c.stockLevel(ctx, s.Tx)
	}
	return c.typ, c.counted(err)
}

// draw picks the type by weight and draws its inputs.
func (c *Client) draw(rng *rand.Rand) {
	n := rng.IntN(c.total)
	c.typ = 0
	for n >= c.mix[c.typ] {
		n -= c.mix[c.typ]
		c.typ++
	}
	w := between(rng, c.wLo, c.wHi)
	switch c.typ {
	case NewOrder:
		c.no.draw(rng, c.dims, c.k, w)
	case Payment:
		c.pay.draw(rng, c.dims, c.k, w)
	case OrderStatus:
		c.os.draw(rng, c.dims, c.k, w)
	case Delivery:
		c.del.draw(rng, w)
	default:
		c.sl.draw(rng, w, c.district)
	}
}

// begin starts a transaction on tx and makes tx's session the one the
// reads go to: a thread may hold several sessions and run each
// transaction on the next (--connections), each of them set up.
func (c *Client) begin(ctx context.Context, tx dbms.Transactor) error {
	tq, ok := tx.(dbms.TextQuerier)
	if !ok {
		return errNoText
	}
	c.tq = tq
	return tx.Begin(ctx, c.cfg.Isolation)
}

// queryRow runs read i and wants exactly one row: none means the data
// are not the workload's (a key the inputs drew is missing).
func (c *Client) queryRow(ctx context.Context, i int, args ...any) ([]string, error) {
	if err := c.query(ctx, i, args...); err != nil {
		return nil, err
	}
	if len(c.res.Rows) != 1 {
		return nil, invalid("%s %v: %d rows, want 1", firstWords(readSQL[i]), args, len(c.res.Rows))
	}
	return c.res.Rows[0], nil
}

// errNoText is a session that cannot hand back the rows of a read (no
// dbms.TextQuerier; every adapter has one today).
var errNoText = dbms.Wrap(dbms.Unsupported, errors.New("orders: the engine's session runs no text queries (dbms.TextQuerier)"))

// invalid is an error of class Invalid: the database is not what the
// workload built, and the run must stop.
func invalid(format string, args ...any) error {
	return dbms.Wrap(dbms.Invalid, fmt.Errorf("orders: "+format, args...))
}

// firstWords names a statement in an error: its first four words.
func firstWords(stmt string) string {
	words := 0
	for i := 0; i < len(stmt); i++ {
		if stmt[i] == ' ' {
			words++
			if words == 4 {
				return stmt[:i]
			}
		}
	}
	return stmt
}

// commit commits, marking a commit lost with its connection.
func commit(ctx context.Context, tx dbms.Transactor) error { return workload.Commit(ctx, tx) }
