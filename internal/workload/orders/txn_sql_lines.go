package orders

import "strings"

// New-Order's lines go to the server in four statements whatever their
// number, not four per line: the items in one read (IN), the stock rows
// in one UPDATE and one read, the order lines in one INSERT. A line-by-line
// New-Order takes about 45 round trips, and the district row it updates
// first stays locked through all of them: at a few terminals per
// warehouse the lock waits and the round trips, not the engine's work,
// set the rate (go-tpc batches the same way).
//
// The item read, the stock update and the stock read have MaxLines slots
// and are padded with the first line's values: a repeated key in an IN
// list, a CASE or an OR selects, sets or reads nothing twice, and one text
// per statement keeps one prepared statement per session instead of one
// per line count. The stock UPDATE picks each row's quantity by its item
// (a simple CASE on s_i_id): an order's items are distinct (draw), so no
// row is updated twice and the rows updated must be the lines sent. The
// INSERT cannot be padded: it has one text per number of lines
// (sqlInsertLines[k]), or one row at a time on an engine whose VALUES
// takes a single row (dbms.SingleRowValues).

// stockKeys selects the stock rows of MaxLines (warehouse, item) pairs.
var stockKeys = repeatJoin("(s_w_id = ? AND s_i_id = ?)", MaxLines, " OR ")

// sqlUpdateStocks applies the quantity rule of clause 2.4.2.2 to each
// line's stock row: S_QUANTITY - OL_QUANTITY when that leaves at least 10,
// else S_QUANTITY - OL_QUANTITY + 91. Its arguments (stockUpdateArgs):
// per slot the item, OL_QUANTITY + 10, OL_QUANTITY and 91 - OL_QUANTITY;
// per slot the item and OL_QUANTITY (S_YTD, cast: a CASE of parameters
// alone has no type on PostgreSQL); the home warehouse (a row of another
// one is a remote line's); per slot the supplying warehouse and the item.
var sqlUpdateStocks = "UPDATE stock SET s_quantity = CASE s_i_id " +
	repeatJoin("WHEN ? THEN CASE WHEN s_quantity >= ? THEN s_quantity - ? ELSE s_quantity + ? END", MaxLines, " ") + " END," +
	" s_ytd = s_ytd + CASE s_i_id " + repeatJoin("WHEN ? THEN CAST(? AS INTEGER)", MaxLines, " ") + " END," +
	" s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + CASE WHEN s_w_id = ? THEN 0 ELSE 1 END" +
	" WHERE " + stockKeys

// sqlInsertLines[k] inserts k order lines (k from 1 to MaxLines).
var sqlInsertLines = func() (out [MaxLines + 1]string) {
	for k := 1; k <= MaxLines; k++ {
		out[k] = "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info) VALUES " +
			repeatJoin("(?, ?, ?, ?, ?, ?, ?, ?, ?)", k, ", ")
	}
	return out
}()

// repeatJoin is n copies of s separated by sep.
func repeatJoin(s string, n int, sep string) string {
	return strings.TrimSuffix(strings.Repeat(s+sep, n), sep)
}
