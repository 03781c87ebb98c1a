package orders

import (
	"strconv"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// data is one population: its seed, its dates and its C_LOAD.
type data struct {
	seed uint64
	now  time.Time
	load Constants
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
	switch name {
	case Item:
		return func() maker { return &itemRows{data: p} }
	case Warehouse:
		return func() maker { return &warehouseRows{data: p} }
	case District:
		return func() maker { return &districtRows{data: p} }
	case Customer:
		return func() maker { return &customerRows{data: p} }
	case History:
		return func() maker { return &historyRows{data: p} }
	case NewOrder:
		return func() maker { return &newOrderRows{} }
	case Orders:
		return func() maker { return &orderRows{data: p} }
	case OrderLine:
		return func() maker { return &orderLineRows{data: p} }
	case Stock:
		return func() maker { return &stockRows{data: p} }
	}
	panic("orders: no rows for table " + name)
}

// rowsPerWarehouse is how many rows of table name warehouse w holds.
func (p data) rowsPerWarehouse(name string, w int64) int64 {
	switch name {
	case Warehouse:
		return 1
	case District:
		return DistrictsPerWarehouse
	case Customer, History, Orders:
		return DistrictsPerWarehouse * CustomersPerDistrict
	case NewOrder:
		return DistrictsPerWarehouse * NewOrdersPerDistrict
	case Stock:
		return StockPerWarehouse
	case OrderLine:
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

// rows streams a table's rows for warehouses first to last in key order
// (the items: first and last 0). It implements dbms.RowSource.
type rows struct {
	m           maker
	last        int64
	w, d        int64
	first, open bool
}

func newRows(newMaker func() maker, first, last int64) *rows {
	return &rows{m: newMaker(), w: first, last: last, first: true}
}

// Next fills row with the next row; false at the end.
func (s *rows) Next(row []any) bool {
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
func (s *rows) advance() bool {
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

var _ dbms.RowSource = (*rows)(nil)

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

type itemRows struct {
	data
	g gen
	i int64
}

func (r *itemRows) perDistrict() bool { return false }
func (r *itemRows) begin(_, _ int64) {
	r.g, r.i = newGen(r.seed, streamItem, 0, 0), 0
}
func (r *itemRows) next(row []any) bool {
	if r.i == Items {
		return false
	}
	r.i++
	g := r.g
	row[0], row[1], row[2] = r.i, int64(g.between(1, 10_000)), g.astring(14, 24)
	row[3], row[4] = fixed(int64(g.between(100, 10_000)), 2), g.data()
	return true
}

type warehouseRows struct {
	data
	w    int64
	done bool
}

func (r *warehouseRows) perDistrict() bool { return false }
func (r *warehouseRows) begin(w, _ int64)  { r.w, r.done = w, false }
func (r *warehouseRows) next(row []any) bool {
	if r.done {
		return false
	}
	r.done = true
	g := newGen(r.seed, streamWarehouse, r.w, 0)
	row[0], row[1] = r.w, g.astring(6, 10)
	address(g, row[2:7])
	row[7], row[8] = g.tax(), warehouseYTD
	return true
}

// address fills street 1, street 2, city, state and zip.
func address(g gen, row []any) {
	row[0], row[1], row[2], row[3], row[4] = g.astring(10, 20), g.astring(10, 20), g.astring(10, 20), g.state(), g.zip()
}

type districtRows struct {
	data
	g    gen
	w, d int64
}

func (r *districtRows) perDistrict() bool { return false }
func (r *districtRows) begin(w, _ int64) {
	r.g, r.w, r.d = newGen(r.seed, streamDistrict, w, 0), w, 0
}
func (r *districtRows) next(row []any) bool {
	if r.d == DistrictsPerWarehouse {
		return false
	}
	r.d++
	row[0], row[1], row[2] = r.d, r.w, r.g.astring(6, 10)
	address(r.g, row[3:8])
	row[8], row[9], row[10] = r.g.tax(), districtYTD, int64(OrdersPerDistrict+1)
	return true
}

type customerRows struct {
	data
	g       gen
	w, d, c int64
}

func (r *customerRows) perDistrict() bool { return true }
func (r *customerRows) begin(w, d int64) {
	r.g, r.w, r.d, r.c = newGen(r.seed, streamCustomer, w, d), w, d, 0
}
func (r *customerRows) next(row []any) bool {
	if r.c == CustomersPerDistrict {
		return false
	}
	r.c++
	g := r.g
	last := int(r.c - 1)
	if r.c > NamedCustomers {
		last = NURand(g.r, lastNameA, r.load.LastName, 0, 999)
	}
	credit := "GC"
	if g.r.IntN(10) == 0 {
		credit = "BC"
	}
	row[0], row[1], row[2], row[3], row[4], row[5] = r.c, r.d, r.w, g.astring(8, 16), "OE", LastName(last)
	address(g, row[6:11])
	row[11], row[12], row[13], row[14] = g.nstring(16), r.now, credit, creditLimit
	row[15], row[16], row[17] = fixed(int64(g.between(0, 5000)), 4), initialBalance, initialPayment
	row[18], row[19], row[20] = int64(1), int64(0), g.astring(300, 500)
	return true
}

type historyRows struct {
	data
	g       gen
	w, d, c int64
}

func (r *historyRows) perDistrict() bool { return true }
func (r *historyRows) begin(w, d int64) {
	r.g, r.w, r.d, r.c = newGen(r.seed, streamHistory, w, d), w, d, 0
}
func (r *historyRows) next(row []any) bool {
	if r.c == CustomersPerDistrict {
		return false
	}
	r.c++
	row[0], row[1], row[2], row[3], row[4] = r.c, r.d, r.w, r.d, r.w
	row[5], row[6], row[7] = r.now, initialPayment, r.g.astring(12, 24)
	return true
}

type newOrderRows struct{ w, d, o int64 }

func (r *newOrderRows) perDistrict() bool { return true }
func (r *newOrderRows) begin(w, d int64)  { r.w, r.d, r.o = w, d, FirstNewOrder-1 }
func (r *newOrderRows) next(row []any) bool {
	if r.o == OrdersPerDistrict {
		return false
	}
	r.o++
	row[0], row[1], row[2] = r.o, r.d, r.w
	return true
}

type orderRows struct {
	data
	g         gen
	customers []int
	lines     []int8
	w, d, o   int64
}

func (r *orderRows) perDistrict() bool { return true }
func (r *orderRows) begin(w, d int64) {
	r.g, r.w, r.d, r.o = newGen(r.seed, streamOrders, w, d), w, d, 0
	// o_c_id runs through a permutation of the district's customers.
	r.customers = newGen(r.seed, streamOrderCustomers, w, d).r.Perm(CustomersPerDistrict)
	r.lines = r.lineCounts(w, d)
}
func (r *orderRows) next(row []any) bool {
	if r.o == OrdersPerDistrict {
		return false
	}
	r.o++
	var carrier any // NULL: not delivered
	if r.o < FirstNewOrder {
		carrier = int64(r.g.between(1, 10))
	}
	row[0], row[1], row[2], row[3] = r.o, r.d, r.w, int64(r.customers[r.o-1]+1)
	row[4], row[5], row[6], row[7] = r.now, carrier, int64(r.lines[r.o-1]), int64(1)
	return true
}

type orderLineRows struct {
	data
	g          gen
	lines      []int8
	w, d, o, n int64
}

func (r *orderLineRows) perDistrict() bool { return true }
func (r *orderLineRows) begin(w, d int64) {
	r.g, r.w, r.d, r.o, r.n = newGen(r.seed, streamOrderLine, w, d), w, d, 1, 0
	r.lines = r.lineCounts(w, d)
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

type stockRows struct {
	data
	g    gen
	w, i int64
}

func (r *stockRows) perDistrict() bool { return false }
func (r *stockRows) begin(w, _ int64) {
	r.g, r.w, r.i = newGen(r.seed, streamStock, w, 0), w, 0
}
func (r *stockRows) next(row []any) bool {
	if r.i == StockPerWarehouse {
		return false
	}
	r.i++
	g := r.g
	row[0], row[1], row[2] = r.i, r.w, int64(g.between(10, 100))
	for k := range stockDists {
		row[3+k] = g.astring(24, 24)
	}
	row[13], row[14], row[15], row[16] = int64(0), int64(0), int64(0), g.data()
	return true
}
