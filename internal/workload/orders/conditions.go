package orders

import (
	"fmt"
	"strconv"
)

// Condition is one of the twelve consistency conditions of clause 3.3.2,
// as one query every engine here runs (PostgreSQL, MariaDB, SQLite,
// DuckDB, Firebird 3: no LIMIT, no reserved word as a name, every
// derived column named). The query selects the condition's violations,
// one row per warehouse, district, order or customer that breaks it.
type Condition struct {
	// Number is N of clause 3.3.2.N.
	Number int
	// Rule is the relationship, in the clause's terms.
	Rule string
	// Unit is what one violation is: warehouse, district, order or
	// customer.
	Unit string
	// LoadOnly: the condition holds only right after the population
	// (11: Delivery removes new orders the count of orders keeps).
	LoadOnly bool
	// Expensive: the condition reads every order line or every customer
	// (5 to 7, 10, 12), not the per-district sums the others compare.
	Expensive bool
	// violations selects vw, vd, vx (warehouse, district, order or
	// customer; 0 where the unit has none) and the values compared,
	// v1 to v3; say puts them in words.
	violations string
	say        func(v []string) string
}

// Money is compared as ROUND(difference, 2) <> 0. DECIMAL is exact on
// PostgreSQL, MariaDB, DuckDB and Firebird, so there the rounding changes
// nothing: both sides have two decimals. SQLite stores DECIMAL as
// floating point (numeric affinity), whose sums of cents differ from the
// exact sum in the last bits; rounded to cents they are exact again for
// any sum below 10^13.

// deliveredByCustomer is each customer's sum of ol_amount over the lines
// of delivered orders (ol_delivery_d set), conditions 10 and 12.
const deliveredByCustomer = `SELECT o.o_w_id AS ow, o.o_d_id AS od, o.o_c_id AS oc, SUM(l.ol_amount) AS olsum
 FROM orders o JOIN order_line l ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id
 WHERE l.ol_delivery_d IS NOT NULL GROUP BY o.o_w_id, o.o_d_id, o.o_c_id`

var conditions = []Condition{
	{Number: 1, Rule: "W_YTD = sum(D_YTD)", Unit: "warehouse",
		violations: `SELECT w.w_id AS vw, 0 AS vd, 0 AS vx, w.w_ytd AS v1, COALESCE(d.dsum, 0) AS v2
 FROM warehouse w LEFT JOIN (SELECT d_w_id, SUM(d_ytd) AS dsum FROM district GROUP BY d_w_id) d ON d.d_w_id = w.w_id
 WHERE ROUND(w.w_ytd - COALESCE(d.dsum, 0), 2) <> 0`,
		say: func(v []string) string {
			return fmt.Sprintf("warehouse %s: w_ytd = %s, sum(d_ytd) = %s", v[0], v[3], v[4])
		}},
	{Number: 2, Rule: "D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID)", Unit: "district",
		violations: `SELECT d.d_w_id AS vw, d.d_id AS vd, 0 AS vx, d.d_next_o_id - 1 AS v1, o.omax AS v2, n.nmax AS v3
 FROM district d
 LEFT JOIN (SELECT o_w_id, o_d_id, MAX(o_id) AS omax FROM orders GROUP BY o_w_id, o_d_id) o ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id
 LEFT JOIN (SELECT no_w_id, no_d_id, MAX(no_o_id) AS nmax FROM new_order GROUP BY no_w_id, no_d_id) n ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id
 WHERE COALESCE(o.omax, 0) <> d.d_next_o_id - 1 OR n.nmax <> d.d_next_o_id - 1`,
		say: func(v []string) string {
			return fmt.Sprintf("%s: d_next_o_id - 1 = %s, max(o_id) = %s, max(no_o_id) = %s", district(v), v[3], none(v[4]), none(v[5]))
		}},
	{Number: 3, Rule: "max(NO_O_ID) - min(NO_O_ID) + 1 = count(NEW_ORDER)", Unit: "district",
		violations: `SELECT no_w_id AS vw, no_d_id AS vd, 0 AS vx, MAX(no_o_id) - MIN(no_o_id) + 1 AS v1, COUNT(*) AS v2
 FROM new_order GROUP BY no_w_id, no_d_id HAVING MAX(no_o_id) - MIN(no_o_id) + 1 <> COUNT(*)`,
		say: func(v []string) string {
			return fmt.Sprintf("%s: max(no_o_id) - min(no_o_id) + 1 = %s, %s new_order rows", district(v), v[3], v[4])
		}},
	{Number: 4, Rule: "sum(O_OL_CNT) = count(ORDER_LINE)", Unit: "district",
		violations: `SELECT o.o_w_id AS vw, o.o_d_id AS vd, 0 AS vx, o.olcnt AS v1, COALESCE(l.olrows, 0) AS v2
 FROM (SELECT o_w_id, o_d_id, SUM(o_ol_cnt) AS olcnt FROM orders GROUP BY o_w_id, o_d_id) o
 LEFT JOIN (SELECT ol_w_id, ol_d_id, COUNT(*) AS olrows FROM order_line GROUP BY ol_w_id, ol_d_id) l ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id
 WHERE o.olcnt <> COALESCE(l.olrows, 0)`,
		say: func(v []string) string {
			return fmt.Sprintf("%s: sum(o_ol_cnt) = %s, %s order_line rows", district(v), v[3], v[4])
		}},
	{Number: 5, Rule: "O_CARRIER_ID is null if and only if a NEW_ORDER row exists", Unit: "order", Expensive: true,
		violations: `SELECT o.o_w_id AS vw, o.o_d_id AS vd, o.o_id AS vx, o.o_carrier_id AS v1, n.no_o_id AS v2
 FROM orders o LEFT JOIN new_order n ON n.no_w_id = o.o_w_id AND n.no_d_id = o.o_d_id AND n.no_o_id = o.o_id
 WHERE (o.o_carrier_id IS NULL AND n.no_o_id IS NULL) OR (o.o_carrier_id IS NOT NULL AND n.no_o_id IS NOT NULL)`,
		say: func(v []string) string {
			if v[3] == "" {
				return order(v) + ": no carrier and no new_order row"
			}
			return fmt.Sprintf("%s: carrier %s and a new_order row", order(v), v[3])
		}},
	{Number: 6, Rule: "O_OL_CNT = count(ORDER_LINE) of the order", Unit: "order", Expensive: true,
		violations: `SELECT o.o_w_id AS vw, o.o_d_id AS vd, o.o_id AS vx, o.o_ol_cnt AS v1, COALESCE(l.olrows, 0) AS v2
 FROM orders o LEFT JOIN (SELECT ol_w_id, ol_d_id, ol_o_id, COUNT(*) AS olrows FROM order_line GROUP BY ol_w_id, ol_d_id, ol_o_id) l
 ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id
 WHERE o.o_ol_cnt <> COALESCE(l.olrows, 0)`,
		say: func(v []string) string {
			return fmt.Sprintf("%s: o_ol_cnt = %s, %s order_line rows", order(v), v[3], v[4])
		}},
	{Number: 7, Rule: "OL_DELIVERY_D is null if and only if O_CARRIER_ID is null", Unit: "order", Expensive: true,
		violations: `SELECT o.o_w_id AS vw, o.o_d_id AS vd, o.o_id AS vx, o.o_carrier_id AS v1, COUNT(*) AS v2
 FROM orders o JOIN order_line l ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id
 WHERE (l.ol_delivery_d IS NULL AND o.o_carrier_id IS NOT NULL) OR (l.ol_delivery_d IS NOT NULL AND o.o_carrier_id IS NULL)
 GROUP BY o.o_w_id, o.o_d_id, o.o_id, o.o_carrier_id`,
		say: func(v []string) string {
			if v[3] == "" {
				return fmt.Sprintf("%s: no carrier, but %s of its lines have a delivery date", order(v), v[4])
			}
			return fmt.Sprintf("%s: carrier %s, but %s of its lines have no delivery date", order(v), v[3], v[4])
		}},
	{Number: 8, Rule: "W_YTD = sum(H_AMOUNT)", Unit: "warehouse",
		violations: `SELECT w.w_id AS vw, 0 AS vd, 0 AS vx, w.w_ytd AS v1, COALESCE(h.hsum, 0) AS v2
 FROM warehouse w LEFT JOIN (SELECT h_w_id, SUM(h_amount) AS hsum FROM history GROUP BY h_w_id) h ON h.h_w_id = w.w_id
 WHERE ROUND(w.w_ytd - COALESCE(h.hsum, 0), 2) <> 0`,
		say: func(v []string) string {
			return fmt.Sprintf("warehouse %s: w_ytd = %s, sum(h_amount) = %s", v[0], v[3], v[4])
		}},
	{Number: 9, Rule: "D_YTD = sum(H_AMOUNT)", Unit: "district",
		violations: `SELECT d.d_w_id AS vw, d.d_id AS vd, 0 AS vx, d.d_ytd AS v1, COALESCE(h.hsum, 0) AS v2
 FROM district d LEFT JOIN (SELECT h_w_id, h_d_id, SUM(h_amount) AS hsum FROM history GROUP BY h_w_id, h_d_id) h
 ON h.h_w_id = d.d_w_id AND h.h_d_id = d.d_id
 WHERE ROUND(d.d_ytd - COALESCE(h.hsum, 0), 2) <> 0`,
		say: func(v []string) string {
			return fmt.Sprintf("%s: d_ytd = %s, sum(h_amount) = %s", district(v), v[3], v[4])
		}},
	{Number: 10, Rule: "C_BALANCE = sum(OL_AMOUNT of delivered orders) - sum(H_AMOUNT)", Unit: "customer", Expensive: true,
		violations: `SELECT c.c_w_id AS vw, c.c_d_id AS vd, c.c_id AS vx, c.c_balance AS v1, COALESCE(ol.olsum, 0) AS v2, COALESCE(h.hsum, 0) AS v3
 FROM customer c
 LEFT JOIN (` + deliveredByCustomer + `) ol ON ol.ow = c.c_w_id AND ol.od = c.c_d_id AND ol.oc = c.c_id
 LEFT JOIN (SELECT h_c_w_id, h_c_d_id, h_c_id, SUM(h_amount) AS hsum FROM history GROUP BY h_c_w_id, h_c_d_id, h_c_id) h
 ON h.h_c_w_id = c.c_w_id AND h.h_c_d_id = c.c_d_id AND h.h_c_id = c.c_id
 WHERE ROUND(c.c_balance - (COALESCE(ol.olsum, 0) - COALESCE(h.hsum, 0)), 2) <> 0`,
		say: func(v []string) string {
			return fmt.Sprintf("%s: c_balance = %s, delivered ol_amount %s - h_amount %s", customer(v), v[3], v[4], v[5])
		}},
	{Number: 11, Rule: "count(ORDER) - count(NEW_ORDER) = 2100", Unit: "district", LoadOnly: true,
		violations: `SELECT d.d_w_id AS vw, d.d_id AS vd, 0 AS vx, COALESCE(o.ocount, 0) AS v1, COALESCE(n.ncount, 0) AS v2
 FROM district d
 LEFT JOIN (SELECT o_w_id, o_d_id, COUNT(*) AS ocount FROM orders GROUP BY o_w_id, o_d_id) o ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id
 LEFT JOIN (SELECT no_w_id, no_d_id, COUNT(*) AS ncount FROM new_order GROUP BY no_w_id, no_d_id) n ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id
 WHERE COALESCE(o.ocount, 0) - COALESCE(n.ncount, 0) <> ` + strconv.Itoa(FirstNewOrder-1),
		say: func(v []string) string {
			return fmt.Sprintf("%s: %s orders, %s new_order rows", district(v), v[3], v[4])
		}},
	{Number: 12, Rule: "C_BALANCE + C_YTD_PAYMENT = sum(OL_AMOUNT of delivered orders)", Unit: "customer", Expensive: true,
		violations: `SELECT c.c_w_id AS vw, c.c_d_id AS vd, c.c_id AS vx, c.c_balance AS v1, c.c_ytd_payment AS v2, COALESCE(ol.olsum, 0) AS v3
 FROM customer c
 LEFT JOIN (` + deliveredByCustomer + `) ol ON ol.ow = c.c_w_id AND ol.od = c.c_d_id AND ol.oc = c.c_id
 WHERE ROUND(c.c_balance + c.c_ytd_payment - COALESCE(ol.olsum, 0), 2) <> 0`,
		say: func(v []string) string {
			return fmt.Sprintf("%s: c_balance %s + c_ytd_payment %s, delivered ol_amount %s", customer(v), v[3], v[4], v[5])
		}},
}

func district(v []string) string { return fmt.Sprintf("warehouse %s, district %s", v[0], v[1]) }
func order(v []string) string {
	return fmt.Sprintf("order %s of warehouse %s, district %s", v[2], v[0], v[1])
}
func customer(v []string) string {
	return fmt.Sprintf("customer %s of warehouse %s, district %s", v[2], v[0], v[1])
}

// none shows a NULL maximum (no rows) as such.
func none(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
