package orders

import (
	"strconv"
	"strings"
)

// Delivery's ten districts go to the server together, as New-Order's
// lines do (txn_sql_lines.go): the oldest new order of every district in
// one read (a UNION ALL of the ten MIN lookups, each on the key, where a
// GROUP BY would read every new order of the warehouse), and each later
// step in one statement over the orders found, keyed by (district,
// order) pairs padded to ten with the first pair. Delivery is then 9
// round trips instead of about 70.

// districtKeys selects ten (district, order) pairs on columns d and o.
func districtKeys(d, o string) string {
	return repeatJoin("("+d+" = ? AND "+o+" = ?)", DistrictsPerWarehouse, " OR ")
}

// sqlOldestNew reads each district's oldest new order (NULL for none) with
// its district; its arguments are the warehouse ten times.
var sqlOldestNew = func() string {
	parts := make([]string, DistrictsPerWarehouse)
	for d := range parts {
		parts[d] = "SELECT " + strconv.Itoa(d+1) + ", MIN(no_o_id) FROM new_order WHERE no_w_id = ? AND no_d_id = " + strconv.Itoa(d+1)
	}
	return strings.Join(parts, " UNION ALL ")
}()

// The writes over the orders found; their arguments are the warehouse and
// the ten pairs (sqlSetCarrier's the carrier first, sqlDeliverCust's each
// pair's district and amount first).
var (
	sqlDeleteNew    = "DELETE FROM new_order WHERE no_w_id = ? AND (" + districtKeys("no_d_id", "no_o_id") + ")"
	sqlSetCarrier   = "UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND (" + districtKeys("o_d_id", "o_id") + ")"
	sqlDeliverLines = "UPDATE order_line SET ol_delivery_d = CURRENT_TIMESTAMP WHERE ol_w_id = ? AND (" + districtKeys("ol_d_id", "ol_o_id") + ")"
	// A district's order has one customer: the amount is chosen by the
	// customer's district.
	sqlDeliverCust = "UPDATE customer SET c_balance = c_balance + CASE c_d_id " +
		repeatJoin("WHEN ? THEN CAST(? AS DECIMAL(12,2))", DistrictsPerWarehouse, " ") + " END, c_delivery_cnt = c_delivery_cnt + 1" +
		" WHERE c_w_id = ? AND (" + districtKeys("c_d_id", "c_id") + ")"
)
