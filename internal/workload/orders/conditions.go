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

// Each condition that compares tables does it in one pass: the rows of
// every table as rows of one union, keyed by warehouse, district and
// order or customer, summed per key (isrow marks the key's own row, so
// that only existing warehouses, districts, orders or customers count).
// A LEFT JOIN to an aggregating subquery says the same, but Firebird 3
// runs such a join as a nested loop, aggregating the subquery again for
// each outer row: condition 10 took 14 minutes at one warehouse there,
// all twelve conditions as unions take 2 s. The union is one scan of
// each table on the other engines too.

// sameSum selects the rows of table (keys: their vw, vd, vx) whose money
// is not the sum of amount over the rows of from with the same key
// (fromKeys): conditions 1, 8 and 9.
func sameSum(table, keys, money, from, fromKeys, amount string) string {
	return `SELECT vw, vd, vx, SUM(a1) AS v1, SUM(a2) AS v2 FROM (
 SELECT ` + keys + `, 1 AS isrow, ` + money + ` AS a1, 0.00 AS a2 FROM ` + table + `
 UNION ALL SELECT ` + fromKeys + `, 0, 0.00, ` + amount + ` FROM ` + from + `) u
 GROUP BY vw, vd, vx HAVING SUM(isrow) > 0 AND ROUND(SUM(a1) - SUM(a2), 2) <> 0`
}

// deliveredLines selects the lines of delivered orders (ol_delivery_d
// set) as rows of their customer, with the union's other columns as
// given (conditions 10 and 12).
func deliveredLines(cols string) string {
	return `SELECT o.o_w_id, o.o_d_id, o.o_c_id, 0, ` + cols + `
 FROM orders o JOIN order_line l ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id
 WHERE l.ol_delivery_d IS NOT NULL`
}

var conditions = []Condition{
	{Number: 1, Rule: "W_YTD = sum(D_YTD)", Unit: "warehouse",
		violations: sameSum("warehouse", "w_id AS vw, 0 AS vd, 0 AS vx", "w_ytd", "district", "d_w_id, 0, 0", "d_ytd"),
		say: func(v []string) string {
			return fmt.Sprintf("warehouse %s: w_ytd = %s, sum(d_ytd) = %s", v[0], v[3], v[4])
		}},
	{Number: 2, Rule: "D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID)", Unit: "district",
		violations: `SELECT vw, vd, vx, MAX(a1) AS v1, MAX(a2) AS v2, MAX(a3) AS v3 FROM (
 SELECT d_w_id AS vw, d_id AS vd, 0 AS vx, 1 AS isrow, d_next_o_id - 1 AS a1, 0 AS a2, 0 AS a3 FROM district
 UNION ALL SELECT o_w_id, o_d_id, 0, 0, 0, o_id, 0 FROM orders
 UNION ALL SELECT no_w_id, no_d_id, 0, 0, 0, 0, no_o_id FROM new_order) u
 GROUP BY vw, vd, vx HAVING SUM(isrow) > 0 AND (MAX(a2) <> MAX(a1) OR (MAX(a3) > 0 AND MAX(a3) <> MAX(a1)))`,
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
		violations: `SELECT vw, vd, vx, SUM(a1) AS v1, SUM(a2) AS v2 FROM (
 SELECT o_w_id AS vw, o_d_id AS vd, 0 AS vx, o_ol_cnt AS a1, 0 AS a2 FROM orders
 UNION ALL SELECT ol_w_id, ol_d_id, 0, 0, 1 FROM order_line) u
 GROUP BY vw, vd, vx HAVING SUM(a1) <> SUM(a2)`,
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
		violations: `SELECT vw, vd, vx, SUM(a1) AS v1, SUM(a2) AS v2 FROM (
 SELECT o_w_id AS vw, o_d_id AS vd, o_id AS vx, 1 AS isrow, o_ol_cnt AS a1, 0 AS a2 FROM orders
 UNION ALL SELECT ol_w_id, ol_d_id, ol_o_id, 0, 0, 1 FROM order_line) u
 GROUP BY vw, vd, vx HAVING SUM(isrow) > 0 AND SUM(a1) <> SUM(a2)`,
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
		violations: sameSum("warehouse", "w_id AS vw, 0 AS vd, 0 AS vx", "w_ytd", "history", "h_w_id, 0, 0", "h_amount"),
		say: func(v []string) string {
			return fmt.Sprintf("warehouse %s: w_ytd = %s, sum(h_amount) = %s", v[0], v[3], v[4])
		}},
	{Number: 9, Rule: "D_YTD = sum(H_AMOUNT)", Unit: "district",
		violations: sameSum("district", "d_w_id AS vw, d_id AS vd, 0 AS vx", "d_ytd", "history", "h_w_id, h_d_id, 0", "h_amount"),
		say: func(v []string) string {
			return fmt.Sprintf("%s: d_ytd = %s, sum(h_amount) = %s", district(v), v[3], v[4])
		}},
	{Number: 10, Rule: "C_BALANCE = sum(OL_AMOUNT of delivered orders) - sum(H_AMOUNT)", Unit: "customer", Expensive: true,
		violations: `SELECT vw, vd, vx, SUM(a1) AS v1, SUM(a2) AS v2, SUM(a3) AS v3 FROM (
 SELECT c_w_id AS vw, c_d_id AS vd, c_id AS vx, 1 AS isrow, c_balance AS a1, 0.00 AS a2, 0.00 AS a3 FROM customer
 UNION ALL ` + deliveredLines("0.00, l.ol_amount, 0.00") + `
 UNION ALL SELECT h_c_w_id, h_c_d_id, h_c_id, 0, 0.00, 0.00, h_amount FROM history) u
 GROUP BY vw, vd, vx HAVING SUM(isrow) > 0 AND ROUND(SUM(a1) - (SUM(a2) - SUM(a3)), 2) <> 0`,
		say: func(v []string) string {
			return fmt.Sprintf("%s: c_balance = %s, delivered ol_amount %s - h_amount %s", customer(v), v[3], v[4], v[5])
		}},
	{Number: 11, Rule: "count(ORDER) - count(NEW_ORDER) = 2100", Unit: "district", LoadOnly: true,
		violations: `SELECT vw, vd, vx, SUM(a1) AS v1, SUM(a2) AS v2 FROM (
 SELECT d_w_id AS vw, d_id AS vd, 0 AS vx, 1 AS isrow, 0 AS a1, 0 AS a2 FROM district
 UNION ALL SELECT o_w_id, o_d_id, 0, 0, 1, 0 FROM orders
 UNION ALL SELECT no_w_id, no_d_id, 0, 0, 0, 1 FROM new_order) u
 GROUP BY vw, vd, vx HAVING SUM(isrow) > 0 AND SUM(a1) - SUM(a2) <> ` + strconv.Itoa(FirstNewOrder-1),
		say: func(v []string) string {
			return fmt.Sprintf("%s: %s orders, %s new_order rows", district(v), v[3], v[4])
		}},
	{Number: 12, Rule: "C_BALANCE + C_YTD_PAYMENT = sum(OL_AMOUNT of delivered orders)", Unit: "customer", Expensive: true,
		violations: `SELECT vw, vd, vx, SUM(a1) AS v1, SUM(a2) AS v2, SUM(a3) AS v3 FROM (
 SELECT c_w_id AS vw, c_d_id AS vd, c_id AS vx, 1 AS isrow, c_balance AS a1, c_ytd_payment AS a2, 0.00 AS a3 FROM customer
 UNION ALL ` + deliveredLines("0.00, 0.00, l.ol_amount") + `) u
 GROUP BY vw, vd, vx HAVING SUM(isrow) > 0 AND ROUND(SUM(a1) + SUM(a2) - SUM(a3), 2) <> 0`,
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

// none shows a maximum of no ids (0) as such.
func none(s string) string {
	if s == "0" {
		return "none"
	}
	return s
}
