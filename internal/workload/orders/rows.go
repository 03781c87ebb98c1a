package orders

import (
	"strconv"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// data is one population: its seed, its dates and its C_LOAD.
type data struct {
	seed  uint64
	now   time.Time
	cLoad int
}

// maker makes one table's rows a group at a time: the rows of one
// warehouse's district (perDistrict), of one warehouse, or the items.
// Each group draws from its own stream, so it is the same whatever was
// made before it. A maker belongs to one source.
type maker interface {
	perDistrict() bool
	// begin starts the group of warehouse w and district d (0 for a
	// table kept per warehouse; both 0 for the items).
	begin(w, d int64)
	// next fills row with the group's next row; false at its end.
	next(row []any) bool
}

// maker returns how to make a source's maker of table name.
func (p data) maker(name string) func() maker {
	g := func(stream int64, perDistrict bool, n int64) group {
		return group{data: p, stream: stream, perDist: perDistrict, n: n}
	}
	switch name {
	case TableItem:
		return func() maker { return &itemRows{g(streamItem, false, Items)} }
	case TableWarehouse:
		return func() maker { return &warehouseRows{g(streamWarehouse, false, 1)} }
	case TableDistrict:
		return func() maker { return &districtRows{g(streamDistrict, false, DistrictsPerWarehouse)} }
	case TableCustomer:
		return func() maker { return &customerRows{g(streamCustomer, true, CustomersPerDistrict)} }
	case TableHistory:
		return func() maker { return &historyRows{g(streamHistory, true, CustomersPerDistrict)} }
	case TableNewOrder:
		return func() maker { return &newOrderRows{g(streamNewOrder, true, NewOrdersPerDistrict)} }
	case TableOrders:
		return func() maker { return &orderRows{group: g(streamOrders, true, OrdersPerDistrict)} }
	case TableOrderLine:
		return func() maker { return &orderLineRows{group: g(streamOrderLine, true, OrdersPerDistrict)} }
	case TableStock:
		return func() maker { return &stockRows{g(streamStock, false, StockPerWarehouse)} }
	}
	panic("orders: no rows for table " + name)
}

// group is what every maker keeps: its stream, the group it makes, and
// how many of the group's n rows it made (i, the number of the last).
type group struct {
	data
	stream  int64
	perDist bool
	n       int64
	g       gen
	w, d, i int64
}

func (p *group) perDistrict() bool { return p.perDist }

func (p *group) begin(w, d int64) {
	p.g, p.w, p.d, p.i = newGen(p.seed, p.stream, w, d), w, d, 0
}

// step moves to the group's next row; false after its last.
func (p *group) step() bool {
	if p.i == p.n {
		return false
	}
	p.i++
	return true
}

// rowsPerWarehouse is how many rows of table name warehouse w holds.
func (p data) rowsPerWarehouse(name string, w int64) int64 {
	switch name {
	case TableWarehouse:
		return 1
	case TableDistrict:
		return DistrictsPerWarehouse
	case TableCustomer, TableHistory, TableOrders:
		return DistrictsPerWarehouse * CustomersPerDistrict
	case TableNewOrder:
		return DistrictsPerWarehouse * NewOrdersPerDistrict
	case TableStock:
		return StockPerWarehouse
	case TableOrderLine:
		var n int64
		for d := int64(1); d <= DistrictsPerWarehouse; d++ {
			for _, c := range p.lineCounts(w, d) {
				n += int64(c)
			}
		}
		return n
	}
	panic("orders: no rows per warehouse for table " + name)
}

// lineCounts are the o_ol_cnt of the orders of warehouse w, district d,
// from their own stream: the orders and their lines draw the same ones,
// and the number of lines is known before anything is loaded.
func (p data) lineCounts(w, d int64) []int8 {
	g := newGen(p.seed, streamLineCounts, w, d)
	out := make([]int8, OrdersPerDistrict)
	for i := range out {
		out[i] = int8(g.between(MinLines, MaxLines))
	}
	return out
}

// rowSource streams a table's rows for warehouses first to last in key order
// (the items: first and last 0). It implements dbms.RowSource.
type rowSource struct {
	m           maker
	last        int64
	w, d        int64
	first, open bool
}

func newRows(newMaker func() maker, first, last int64) *rowSource {
	return &rowSource{m: newMaker(), w: first, last: last, first: true}
}

// Next fills row with the next row; false at the end.
func (s *rowSource) Next(row []any) bool {
	for {
		if s.open && s.m.next(row) {
			return true
		}
		if !s.advance() {
			return false
		}
	}
}

// advance starts the next group; false after the last.
func (s *rowSource) advance() bool {
	switch {
	case s.first:
		s.first = false
		if s.m.perDistrict() {
			s.d = 1
		}
	case s.m.perDistrict() && s.d < DistrictsPerWarehouse:
		s.d++
	default:
		s.w++
		if s.m.perDistrict() {
			s.d = 1
		}
	}
	if s.w > s.last {
		return false
	}
	s.m.begin(s.w, s.d)
	s.open = true
	return true
}

var _ dbms.RowSource = (*rowSource)(nil)

// fixed renders v / 10^scale exactly ("-10.00", "0.1234"): the loaders
// take DECIMAL values as text, so no binary fraction comes near money.
func fixed(v int64, scale int) string {
	neg := v < 0
	if neg {
		v = -v
	}
	s := strconv.FormatInt(v, 10)
	for len(s) <= scale {
		s = "0" + s
	}
	s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	if neg {
		return "-" + s
	}
	return s
}

// The fixed money values of the population (clause 4.3.3.1).
const (
	warehouseYTD    = "300000.00"
	districtYTD     = "30000.00"
	creditLimit     = "50000.00"
	initialBalance  = "-10.00"
	initialPayment  = "10.00"
	deliveredAmount = "0.00"
)

type itemRows struct{ group }

func (r *itemRows) next(row []any) bool {
	if !r.step() {
		return false
	}
	g := r.g
	row[0], row[1], row[2] = r.i, int64(g.between(1, 10_000)), g.astring(14, 24)
	row[3], row[4] = fixed(int64(g.between(100, 10_000)), 2), g.data()
	return true
}

type warehouseRows struct{ group }

func (r *warehouseRows) next(row []any) bool {
	if !r.step() {
		return false
	}
	row[0], row[1] = r.w, r.g.astring(6, 10)
	address(r.g, row[2:7])
	row[7], row[8] = r.g.tax(), warehouseYTD
	return true
}

// address fills street 1, street 2, city, state and zip.
func address(g gen, row []any) {
	row[0], row[1], row[2], row[3], row[4] = g.astring(10, 20), g.astring(10, 20), g.astring(10, 20), g.state(), g.zip()
}

type districtRows struct{ group }

func (r *districtRows) next(row []any) bool {
	if !r.step() {
		return false
	}
	row[0], row[1], row[2] = r.i, r.w, r.g.astring(6, 10)
	address(r.g, row[3:8])
	row[8], row[9], row[10] = r.g.tax(), districtYTD, int64(OrdersPerDistrict+1)
	return true
}

type customerRows struct{ group }

func (r *customerRows) next(row []any) bool {
	if !r.step() {
		return false
	}
	g := r.g
	last := int(r.i - 1)
	if r.i > NamedCustomers {
		last = NURand(g.r, lastNameA, r.cLoad, 0, 999)
	}
	credit := "GC"
	if g.r.IntN(10) == 0 {
		credit = "BC"
	}
	row[0], row[1], row[2], row[3], row[4], row[5] = r.i, r.d, r.w, g.astring(8, 16), "OE", LastName(last)
	address(g, row[6:11])
	row[11], row[12], row[13], row[14] = g.nstring(16), r.now, credit, creditLimit
	row[15], row[16], row[17] = fixed(int64(g.between(0, 5000)), 4), initialBalance, initialPayment
	row[18], row[19], row[20] = int64(1), int64(0), g.astring(300, 500)
	return true
}

// historyRows: a payment of each customer, by the customer's district.
type historyRows struct{ group }

func (r *historyRows) next(row []any) bool {
	if !r.step() {
		return false
	}
	row[0], row[1], row[2], row[3], row[4] = r.i, r.d, r.w, r.d, r.w
	row[5], row[6], row[7] = r.now, initialPayment, r.g.astring(12, 24)
	return true
}

type newOrderRows struct{ group }

func (r *newOrderRows) next(row []any) bool {
	if !r.step() {
		return false
	}
	row[0], row[1], row[2] = FirstNewOrder-1+r.i, r.d, r.w
	return true
}

type orderRows struct {
	group
	customers []int
	lines     []int8
}

func (r *orderRows) begin(w, d int64) {
	r.group.begin(w, d)
	// o_c_id runs through a permutation of the district's customers.
	r.customers = newGen(r.seed, streamOrderCustomers, w, d).r.Perm(CustomersPerDistrict)
	r.lines = r.lineCounts(w, d)
}

func (r *orderRows) next(row []any) bool {
	if !r.step() {
		return false
	}
	var carrier any // NULL: not delivered
	if r.i < FirstNewOrder {
		carrier = int64(r.g.between(1, 10))
	}
	row[0], row[1], row[2], row[3] = r.i, r.d, r.w, int64(r.customers[r.i-1]+1)
	row[4], row[5], row[6], row[7] = r.now, carrier, int64(r.lines[r.i-1]), int64(1)
	return true
}

// orderLineRows: the lines of order o, numbered 1 to its count.
type orderLineRows struct {
	group
	lines []int8
	o, n  int64
}

func (r *orderLineRows) begin(w, d int64) {
	r.group.begin(w, d)
	r.lines, r.o, r.n = r.lineCounts(w, d), 1, 0
}

func (r *orderLineRows) next(row []any) bool {
	if r.n == int64(r.lines[r.o-1]) {
		if r.o == OrdersPerDistrict {
			return false
		}
		r.o, r.n = r.o+1, 0
	}
	r.n++
	g := r.g
	var delivered any // NULL: not delivered
	amount := deliveredAmount
	if r.o < FirstNewOrder {
		delivered = r.now
	} else {
		amount = fixed(int64(g.between(1, 999_999)), 2)
	}
	row[0], row[1], row[2], row[3], row[4], row[5] = r.o, r.d, r.w, r.n, int64(g.between(1, Items)), r.w
	row[6], row[7], row[8], row[9] = delivered, int64(5), amount, g.astring(24, 24)
	return true
}

type stockRows struct{ group }

func (r *stockRows) next(row []any) bool {
	if !r.step() {
		return false
	}
	g := r.g
	row[0], row[1], row[2] = r.i, r.w, int64(g.between(10, 100))
	for k := range stockDists {
		row[3+k] = g.astring(24, 24)
	}
	row[13], row[14], row[15], row[16] = int64(0), int64(0), int64(0), g.data()
	return true
}
