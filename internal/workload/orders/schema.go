// Package orders describes the order-entry workload, TPC-C-like
// (docs/orders.md): the nine tables under TPC-C's own table and column
// names and types (those go-tpc creates, so that either kit's checker
// runs on a database the other loaded), their initial rows per warehouse
// (clause 4.3.3.1) deterministic from a seed, the non-uniform random
// numbers and their constants (clause 2.1.6), and the twelve consistency
// conditions of clause 3.3.2 as SQL every engine here runs. It describes;
// the driver runs it.
package orders

import (
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
	"github.com/dbgauge/dbgauge/internal/workload"
)

// Table names: TPC-C's, with ORDER as "orders" (ORDER is a reserved word
// everywhere) and NEW-ORDER, ORDER-LINE with underscores, as every kit
// names them.
const (
	TableWarehouse = "warehouse"
	TableDistrict  = "district"
	TableCustomer  = "customer"
	TableHistory   = "history"
	TableNewOrder  = "new_order"
	TableOrders    = "orders"
	TableOrderLine = "order_line"
	TableItem      = "item"
	TableStock     = "stock"
)

// The initial population (clause 4.3.3.1, Table 1.2.1 of clause 1.2).
const (
	DistrictsPerWarehouse = 10
	CustomersPerDistrict  = 3000
	OrdersPerDistrict     = 3000
	// NewOrdersPerDistrict are the last orders of each district,
	// FirstNewOrder to OrdersPerDistrict: not yet delivered (no carrier,
	// no delivery date on their lines).
	NewOrdersPerDistrict = 900
	FirstNewOrder        = OrdersPerDistrict - NewOrdersPerDistrict + 1
	// NamedCustomers of each district take their last names from their
	// own number (c_id - 1); the others from NURand(255, 0, 999).
	NamedCustomers    = 1000
	StockPerWarehouse = 100_000
	// Items are loaded once, whatever the number of warehouses.
	Items = 100_000
	// MinLines and MaxLines bound an order's lines (o_ol_cnt).
	MinLines = 5
	MaxLines = 15
)

// DataSeed is the seed of the initial rows when none is given: the same
// database at a scale, load after load.
const DataSeed uint64 = 0x6f7264657273 // "orders"

// The secondary indexes the transactions search by: customers by last
// name (Payment, Order-Status), a customer's last order (Order-Status);
// and the history by customer, which no transaction reads but a peer's
// check of condition 10 does, once per customer (go-tpc's check sums
// each customer's payments in a subquery: without the index a scan of
// the whole history per customer, measured on MariaDB at 4 warehouses
// 25 ms a customer, about 50 minutes for the 120,000; with it 0.4 s a
// warehouse).
const (
	CustomerByName   = "idx_customer"
	OrdersCustomers  = "idx_order"
	HistoryCustomers = "idx_history_customer"
)

// Tables are the nine tables in creation order (dropped in reverse), with
// the types go-tpc gives them on MySQL: money DECIMAL(12,2), amounts
// DECIMAL(6,2), rates DECIMAL(4,4), dates DATETIME (Timestamp here).
func Tables() []dbms.Table {
	i := func(name string) dbms.Column { return dbms.Column{Name: name, Type: dbms.Int} }
	ch := func(name string, n int) dbms.Column { return dbms.Column{Name: name, Type: dbms.Char, Len: n} }
	vc := func(name string, n int) dbms.Column { return dbms.Column{Name: name, Type: dbms.Varchar, Len: n} }
	dec := func(name string, digits, scale int) dbms.Column {
		return dbms.Column{Name: name, Type: dbms.Decimal, Len: digits, Scale: scale}
	}
	ts := func(name string) dbms.Column { return dbms.Column{Name: name, Type: dbms.Timestamp} }
	stock := []dbms.Column{i("s_i_id"), i("s_w_id"), i("s_quantity")}
	for _, d := range stockDists {
		stock = append(stock, ch(d, 24))
	}
	stock = append(stock, i("s_ytd"), i("s_order_cnt"), i("s_remote_cnt"), vc("s_data", 50))
	return []dbms.Table{
		{Name: TableItem, Columns: []dbms.Column{i("i_id"), i("i_im_id"), vc("i_name", 24), dec("i_price", 5, 2), vc("i_data", 50)}},
		{Name: TableWarehouse, Columns: []dbms.Column{i("w_id"), vc("w_name", 10), vc("w_street_1", 20), vc("w_street_2", 20), vc("w_city", 20),
			ch("w_state", 2), ch("w_zip", 9), dec("w_tax", 4, 4), dec("w_ytd", 12, 2)}},
		{Name: TableDistrict, Columns: []dbms.Column{i("d_id"), i("d_w_id"), vc("d_name", 10), vc("d_street_1", 20), vc("d_street_2", 20), vc("d_city", 20),
			ch("d_state", 2), ch("d_zip", 9), dec("d_tax", 4, 4), dec("d_ytd", 12, 2), i("d_next_o_id")}},
		{Name: TableCustomer, Columns: []dbms.Column{i("c_id"), i("c_d_id"), i("c_w_id"), vc("c_first", 16), ch("c_middle", 2), vc("c_last", 16),
			vc("c_street_1", 20), vc("c_street_2", 20), vc("c_city", 20), ch("c_state", 2), ch("c_zip", 9), ch("c_phone", 16),
			ts("c_since"), ch("c_credit", 2), dec("c_credit_lim", 12, 2), dec("c_discount", 4, 4), dec("c_balance", 12, 2),
			dec("c_ytd_payment", 12, 2), i("c_payment_cnt"), i("c_delivery_cnt"), vc("c_data", 500)}},
		{Name: TableHistory, Columns: []dbms.Column{i("h_c_id"), i("h_c_d_id"), i("h_c_w_id"), i("h_d_id"), i("h_w_id"), ts("h_date"),
			dec("h_amount", 6, 2), vc("h_data", 24)}},
		{Name: TableNewOrder, Columns: []dbms.Column{i("no_o_id"), i("no_d_id"), i("no_w_id")}},
		{Name: TableOrders, Columns: []dbms.Column{i("o_id"), i("o_d_id"), i("o_w_id"), i("o_c_id"), ts("o_entry_d"), i("o_carrier_id"),
			i("o_ol_cnt"), i("o_all_local")}},
		{Name: TableOrderLine, Columns: []dbms.Column{i("ol_o_id"), i("ol_d_id"), i("ol_w_id"), i("ol_number"), i("ol_i_id"), i("ol_supply_w_id"),
			ts("ol_delivery_d"), i("ol_quantity"), dec("ol_amount", 6, 2), ch("ol_dist_info", 24)}},
		{Name: TableStock, Columns: stock},
	}
}

// stockDists are the stock's district information columns, s_dist_01 to
// s_dist_10.
var stockDists = [DistrictsPerWarehouse]string{"s_dist_01", "s_dist_02", "s_dist_03", "s_dist_04", "s_dist_05",
	"s_dist_06", "s_dist_07", "s_dist_08", "s_dist_09", "s_dist_10"}

// PrimaryKeys are TPC-C's (clause 1.3), warehouse first, as go-tpc
// declares them; the history has none.
var PrimaryKeys = []workload.PrimaryKey{
	{Table: TableItem, Columns: []string{"i_id"}},
	{Table: TableWarehouse, Columns: []string{"w_id"}},
	{Table: TableDistrict, Columns: []string{"d_w_id", "d_id"}},
	{Table: TableCustomer, Columns: []string{"c_w_id", "c_d_id", "c_id"}},
	{Table: TableNewOrder, Columns: []string{"no_w_id", "no_d_id", "no_o_id"}},
	{Table: TableOrders, Columns: []string{"o_w_id", "o_d_id", "o_id"}},
	{Table: TableOrderLine, Columns: []string{"ol_w_id", "ol_d_id", "ol_o_id", "ol_number"}},
	{Table: TableStock, Columns: []string{"s_w_id", "s_i_id"}},
}

// Indexes are the secondary indexes, under go-tpc's names (the history's
// as go-tpc's later releases name and make it).
var Indexes = []workload.Index{
	{Table: TableCustomer, Name: CustomerByName, Columns: []string{"c_w_id", "c_d_id", "c_last", "c_first"}},
	{Table: TableOrders, Name: OrdersCustomers, Columns: []string{"o_w_id", "o_d_id", "o_c_id", "o_id"}},
	{Table: TableHistory, Name: HistoryCustomers, Columns: []string{"h_c_w_id", "h_c_d_id", "h_c_id"}},
}

// Schema is the database at w warehouses, its rows drawn from DataSeed.
func Schema(w int64) workload.Schema { return SchemaSeed(w, DataSeed) }

// SchemaSeed is the database at w warehouses with its rows drawn from
// seed; its dates are the time of this call. Every table but the items
// loads in parts, one per warehouse (part p is warehouse p+1); the items
// are one part.
func SchemaSeed(w int64, seed uint64) workload.Schema {
	d := data{seed: seed, now: time.Now().UTC().Truncate(time.Second), cLoad: int(LoadC(seed))}
	s := workload.Schema{PrimaryKeys: PrimaryKeys, Indexes: Indexes}
	for _, t := range Tables() {
		m := d.maker(t.Name)
		wt := workload.Table{Table: t}
		if t.Name == TableItem {
			wt.Rows = Items
			wt.Fill = func() dbms.RowSource { return newRows(m, 0, 0) }
			wt.Parts = 1
			wt.FillPart = func(int) dbms.RowSource { return newRows(m, 0, 0) }
		} else {
			for x := int64(1); x <= w; x++ {
				wt.Rows += d.rowsPerWarehouse(t.Name, x)
			}
			wt.Fill = func() dbms.RowSource { return newRows(m, 1, w) }
			wt.Parts = int(w)
			wt.FillPart = func(p int) dbms.RowSource { return newRows(m, int64(p)+1, int64(p)+1) }
		}
		s.Tables = append(s.Tables, wt)
	}
	return s
}
