package orders

import (
	"fmt"
	"strings"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// The five transactions' statements, written once for every engine: no
// FOR UPDATE, no LIMIT, no engine's name.
//
// Where a transaction reads a row and then changes it (the district's
// next order number, a stock row, a customer's balance), it changes it
// first, relative to what is stored (d_next_o_id = d_next_o_id + 1, the
// stock's quantity rule as a CASE), and reads it after: the UPDATE takes
// the row's write lock on the engines that lock (PostgreSQL, MariaDB,
// Firebird), which is what SELECT ... FOR UPDATE (WITH LOCK on Firebird)
// is for, and is where an optimistic engine (DuckDB) or a single writer
// (SQLite) reports the conflict; and a plain read after it sees the
// transaction's own change on every engine. Reading first without a lock
// would lose updates under MariaDB's REPEATABLE READ, whose plain SELECT
// reads a snapshot. The profiles of clause 2 say what a transaction
// reads and writes; the kits order their SQL differently (go-tpc reads
// the district FOR UPDATE, then updates it; some update it first with
// RETURNING).
//
// The oldest new order and a customer's last order are read with MIN and
// MAX rather than ORDER BY ... LIMIT 1, which Firebird spells otherwise.
// Delivery deletes the oldest new order it read and wants one row gone:
// none means a concurrent Delivery took it after this one's snapshot,
// which the engines that lock let happen (errDelivered).
//
// Amounts travel as decimal text (txn_money.go); added to a stored amount
// they are cast to DECIMAL first, since MariaDB adds a string to a
// number as a double.

// Statements run through the Transactor (? placeholders; the adapters
// rewrite them): the writes, whose affected rows are checked, and reads
// of one integer.
const (
	sqlBumpNextOrder = "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?"
	sqlInsertOrder   = "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP, ?, ?)"
	sqlInsertNew     = "INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)"

	sqlPayWarehouse = "UPDATE warehouse SET w_ytd = w_ytd + CAST(? AS DECIMAL(12,2)) WHERE w_id = ?"
	sqlPayDistrict  = "UPDATE district SET d_ytd = d_ytd + CAST(? AS DECIMAL(12,2)) WHERE d_w_id = ? AND d_id = ?"
	sqlPayCustomer  = "UPDATE customer SET c_balance = c_balance - CAST(? AS DECIMAL(12,2)), c_ytd_payment = c_ytd_payment + CAST(? AS DECIMAL(12,2))," +
		" c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?"
	sqlCustomerData = "UPDATE customer SET c_data = ? WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?"
	sqlInsertHist   = "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, CURRENT_TIMESTAMP, ?, ?)"

	sqlNextOrder  = "SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?"
	sqlLowStock   = "SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id < ? AND ol_o_id >= ? AND s_w_id = ? AND s_i_id = ol_i_id AND s_quantity < ?"
	sqlCustomerID = "SELECT c_id FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first"
)

// txSQL lists the Transactor's statements, for preparing (with the order
// lines' inserts, sqlInsertLines).
var txSQL = []string{sqlBumpNextOrder, sqlInsertOrder, sqlInsertNew, sqlUpdateStocks,
	sqlPayWarehouse, sqlPayDistrict, sqlPayCustomer, sqlCustomerData, sqlInsertHist,
	sqlDeleteNew, sqlSetCarrier, sqlDeliverLines, sqlDeliverCust,
	sqlNextOrder, sqlLowStock}

// Statements whose rows come back as text (dbms.TextQuerier), by index
// into readSQL; the stock reads are one per district (S_DIST_01..10).
const (
	rDistrict       = iota // New-Order: the district's number just taken, its tax
	rCustomerNO            // New-Order, with the warehouse's tax
	rItems                 // New-Order, every line's item
	rWarehouse             // Payment
	rDistrictPay           // Payment
	rCustomerIDs           // Payment, Order-Status by last name
	rCustomerPay           // Payment
	rCustomerData          // Payment, bad credit
	rCustomerOS            // Order-Status
	rLastOrder             // Order-Status
	rOrderLines            // Order-Status
	rOldestNew             // Delivery, every district's
	rOrderCustomers        // Delivery
	rLinesSums             // Delivery
	rStocks                // New-Order, every line's stock: rStocks + district - 1
	numReads        = rStocks + DistrictsPerWarehouse
)

var readSQL = func() (out [numReads]string) {
	out[rDistrict] = "SELECT d_next_o_id, d_tax FROM district WHERE d_w_id = ? AND d_id = ?"
	out[rCustomerNO] = "SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse WHERE w_id = ? AND c_w_id = w_id AND c_d_id = ? AND c_id = ?"
	out[rItems] = "SELECT i_id, i_price, i_name, i_data FROM item WHERE i_id IN (" + repeatJoin("?", MaxLines, ", ") + ")"
	out[rWarehouse] = "SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM warehouse WHERE w_id = ?"
	out[rDistrictPay] = "SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM district WHERE d_w_id = ? AND d_id = ?"
	out[rCustomerIDs] = sqlCustomerID
	out[rCustomerPay] = "SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since," +
		" c_credit, c_credit_lim, c_discount, c_balance FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?"
	out[rCustomerData] = "SELECT c_data FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?"
	out[rCustomerOS] = "SELECT c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?"
	out[rLastOrder] = "SELECT o_id, o_entry_d, o_carrier_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ?" +
		" AND o_id = (SELECT MAX(o_id) FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ?)"
	out[rOrderLines] = "SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?"
	out[rOldestNew] = sqlOldestNew
	out[rOrderCustomers] = "SELECT o_d_id, o_c_id FROM orders WHERE o_w_id = ? AND (" + districtKeys("o_d_id", "o_id") + ")"
	out[rLinesSums] = "SELECT ol_d_id, SUM(ol_amount) FROM order_line WHERE ol_w_id = ? AND (" + districtKeys("ol_d_id", "ol_o_id") + ") GROUP BY ol_d_id"
	for d := 1; d <= DistrictsPerWarehouse; d++ {
		out[rStocks+d-1] = fmt.Sprintf("SELECT s_i_id, s_quantity, s_data, s_dist_%02d FROM stock WHERE ", d) + stockKeys
	}
	return out
}()

// withPlaceholders rewrites the ? of stmt (none stands inside a literal
// in readSQL) as tq's markers.
func withPlaceholders(stmt string, tq dbms.TextQuerier) string {
	if tq.Placeholder(1) == "?" {
		return stmt
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(stmt); i++ {
		if stmt[i] == '?' {
			n++
			b.WriteString(tq.Placeholder(n))
			continue
		}
		b.WriteByte(stmt[i])
	}
	return b.String()
}
