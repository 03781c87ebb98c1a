package orders

import (
	"strconv"
	"strings"
)

// psql is the procedures in Firebird's PSQL: executable procedures called
// with EXECUTE PROCEDURE, their RETURNS parameters the one row of the
// result. A signal is an exception of the database's own, named by its
// token (its text begins with it too), made before the procedures and
// dropped after them. Firebird 3 has no DROP ... IF EXISTS: each drop
// looks the object up first.
var psql = &procLanguage{
	create: []string{
		"CREATE OR ALTER EXCEPTION " + signalUnused + " '" + signalUnused + ": an item of the order does not exist'",
		"CREATE OR ALTER EXCEPTION " + signalDelivered + " '" + signalDelivered + ": a new order was delivered by another transaction'",
		fbNewOrder, fbPayment, fbOrderStatus, fbDelivery, fbStockLevel,
	},
	drop: func() (out []string) {
		for _, n := range procNames {
			out = append(out, fbDropIfExists("RDB$PROCEDURES", "RDB$PROCEDURE_NAME", "PROCEDURE", strings.ToUpper(n)))
		}
		for _, n := range []string{signalUnused, signalDelivered} {
			out = append(out, fbDropIfExists("RDB$EXCEPTIONS", "RDB$EXCEPTION_NAME", "EXCEPTION", n))
		}
		return out
	}(),
	call: func(name string, n int) string { return "EXECUTE PROCEDURE " + name + "(" + placeholders(n) + ")" },
}

// fbDropIfExists drops the object of kind named name when the system
// table lists it.
func fbDropIfExists(table, column, kind, name string) string {
	return "EXECUTE BLOCK AS BEGIN IF (EXISTS(SELECT 1 FROM " + table + " WHERE " + column + " = '" + name + "')) THEN EXECUTE STATEMENT 'DROP " +
		kind + " " + name + "'; END"
}

// fbCustomerByName sets out_c_id to the customer of last name p_last in
// district (w, d) at position ceil(n/2) of the n sorted by c_first.
func fbCustomerByName(w, d string) string {
	where := " FROM customer WHERE c_w_id = :" + w + " AND c_d_id = :" + d + " AND c_last = :p_last"
	return `  IF (p_by_name = 1) THEN
  BEGIN
    SELECT COUNT(*)` + where + ` INTO :v_n;
    v_n = (v_n - 1) / 2;
    SELECT FIRST 1 SKIP (:v_n) c_id` + where + ` ORDER BY c_first INTO :out_c_id;
  END
  ELSE
    out_c_id = p_c;
`
}

// fbLineField is field (from, width) of line v_i of p_lines as an
// integer.
func fbLineField(from, width int) string {
	return "CAST(SUBSTRING(p_lines FROM v_i * " + strconv.Itoa(lineWidth) + " + " + strconv.Itoa(from) + " FOR " + strconv.Itoa(width) + ") AS INTEGER)"
}

var fbNewOrder = `CREATE OR ALTER PROCEDURE orders_new_order (p_w INTEGER, p_d INTEGER, p_c INTEGER, p_n INTEGER, p_all_local INTEGER, p_lines VARCHAR(240))
RETURNS (out_o_id INTEGER, out_total NUMERIC(18,2)) AS
  DECLARE VARIABLE v_i INTEGER; DECLARE VARIABLE v_number INTEGER; DECLARE VARIABLE v_item INTEGER; DECLARE VARIABLE v_supply INTEGER;
  DECLARE VARIABLE v_qty INTEGER; DECLARE VARIABLE v_squant INTEGER;
  DECLARE VARIABLE v_d_tax NUMERIC(4,4); DECLARE VARIABLE v_w_tax NUMERIC(4,4); DECLARE VARIABLE v_disc NUMERIC(4,4);
  DECLARE VARIABLE v_price NUMERIC(18,2); DECLARE VARIABLE v_amount NUMERIC(18,2); DECLARE VARIABLE v_sum NUMERIC(18,2);
  DECLARE VARIABLE v_last VARCHAR(50); DECLARE VARIABLE v_credit VARCHAR(50); DECLARE VARIABLE v_iname VARCHAR(50);
  DECLARE VARIABLE v_idata VARCHAR(50); DECLARE VARIABLE v_sdata VARCHAR(50); DECLARE VARIABLE v_dist VARCHAR(50);
BEGIN
  UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = :p_w AND d_id = :p_d;
  SELECT d_next_o_id - 1, d_tax FROM district WHERE d_w_id = :p_w AND d_id = :p_d INTO :out_o_id, :v_d_tax;
  SELECT w_tax FROM warehouse WHERE w_id = :p_w INTO :v_w_tax;
  SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = :p_w AND c_d_id = :p_d AND c_id = :p_c INTO :v_disc, :v_last, :v_credit;
  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local) VALUES (:out_o_id, :p_d, :p_w, :p_c, CURRENT_TIMESTAMP, :p_n, :p_all_local);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (:out_o_id, :p_d, :p_w);
  v_sum = 0;
  v_i = 0;
  WHILE (v_i < p_n) DO
  BEGIN
    v_number = ` + fbLineField(1, 2) + `;
    v_item = ` + fbLineField(lineItem, 6) + `;
    v_supply = ` + fbLineField(lineWh, 6) + `;
    v_qty = ` + fbLineField(lineQty, 2) + `;
    v_price = NULL;
    SELECT i_price, i_name, i_data FROM item WHERE i_id = :v_item INTO :v_price, :v_iname, :v_idata;
    IF (v_price IS NULL) THEN
      EXCEPTION ` + signalUnused + `;
    UPDATE stock SET s_quantity = CASE WHEN s_quantity >= :v_qty + 10 THEN s_quantity - :v_qty ELSE s_quantity - :v_qty + 91 END,
      s_ytd = s_ytd + :v_qty, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + CASE WHEN :v_supply <> :p_w THEN 1 ELSE 0 END
      WHERE s_w_id = :v_supply AND s_i_id = :v_item;
    SELECT s_quantity, s_data, ` + distCase(":p_d") + ` FROM stock WHERE s_w_id = :v_supply AND s_i_id = :v_item
      INTO :v_squant, :v_sdata, :v_dist;
    v_amount = v_qty * v_price;
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info)
      VALUES (:out_o_id, :p_d, :p_w, :v_number, :v_item, :v_supply, :v_qty, :v_amount, :v_dist);
    v_sum = v_sum + v_amount;
    v_i = v_i + 1;
  END
  out_total = ROUND(v_sum * (1 - v_disc) * (1 + v_w_tax + v_d_tax), 2);
END`

var fbPayment = `CREATE OR ALTER PROCEDURE orders_payment (p_w INTEGER, p_d INTEGER, p_cw INTEGER, p_cd INTEGER, p_by_name INTEGER, p_c INTEGER,
  p_last VARCHAR(16), p_amount VARCHAR(12), p_tag VARCHAR(24))
RETURNS (out_c_id INTEGER, out_balance NUMERIC(18,2)) AS
  DECLARE VARIABLE v_amount NUMERIC(18,2); DECLARE VARIABLE v_credit_lim NUMERIC(18,2); DECLARE VARIABLE v_disc NUMERIC(4,4);
  DECLARE VARIABLE v_n INTEGER; DECLARE VARIABLE v_since TIMESTAMP;
  DECLARE VARIABLE v_wname VARCHAR(50); DECLARE VARIABLE v_wstreet1 VARCHAR(50); DECLARE VARIABLE v_wstreet2 VARCHAR(50);
  DECLARE VARIABLE v_wcity VARCHAR(50); DECLARE VARIABLE v_wstate VARCHAR(50); DECLARE VARIABLE v_wzip VARCHAR(50);
  DECLARE VARIABLE v_dname VARCHAR(50); DECLARE VARIABLE v_dstreet1 VARCHAR(50); DECLARE VARIABLE v_dstreet2 VARCHAR(50);
  DECLARE VARIABLE v_dcity VARCHAR(50); DECLARE VARIABLE v_dstate VARCHAR(50); DECLARE VARIABLE v_dzip VARCHAR(50);
  DECLARE VARIABLE v_first VARCHAR(50); DECLARE VARIABLE v_middle VARCHAR(50); DECLARE VARIABLE v_last VARCHAR(50);
  DECLARE VARIABLE v_street1 VARCHAR(50); DECLARE VARIABLE v_street2 VARCHAR(50); DECLARE VARIABLE v_city VARCHAR(50);
  DECLARE VARIABLE v_state VARCHAR(50); DECLARE VARIABLE v_zip VARCHAR(50); DECLARE VARIABLE v_phone VARCHAR(50);
  DECLARE VARIABLE v_credit VARCHAR(50); DECLARE VARIABLE v_hdata VARCHAR(50); DECLARE VARIABLE v_data VARCHAR(` + strconv.Itoa(maxCData) + `);
BEGIN
  v_amount = CAST(p_amount AS NUMERIC(18,2));
  UPDATE warehouse SET w_ytd = w_ytd + :v_amount WHERE w_id = :p_w;
  SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM warehouse WHERE w_id = :p_w
    INTO :v_wname, :v_wstreet1, :v_wstreet2, :v_wcity, :v_wstate, :v_wzip;
  UPDATE district SET d_ytd = d_ytd + :v_amount WHERE d_w_id = :p_w AND d_id = :p_d;
  SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM district WHERE d_w_id = :p_w AND d_id = :p_d
    INTO :v_dname, :v_dstreet1, :v_dstreet2, :v_dcity, :v_dstate, :v_dzip;
  v_hdata = v_wname || '    ' || v_dname;
  IF (p_tag <> '') THEN
    v_hdata = p_tag;
` + fbCustomerByName("p_cw", "p_cd") + `  UPDATE customer SET c_balance = c_balance - :v_amount, c_ytd_payment = c_ytd_payment + :v_amount, c_payment_cnt = c_payment_cnt + 1
    WHERE c_w_id = :p_cw AND c_d_id = :p_cd AND c_id = :out_c_id;
  SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance
    FROM customer WHERE c_w_id = :p_cw AND c_d_id = :p_cd AND c_id = :out_c_id
    INTO :v_first, :v_middle, :v_last, :v_street1, :v_street2, :v_city, :v_state, :v_zip, :v_phone, :v_since, :v_credit, :v_credit_lim, :v_disc, :out_balance;
  IF (v_credit = 'BC') THEN
  BEGIN
    SELECT c_data FROM customer WHERE c_w_id = :p_cw AND c_d_id = :p_cd AND c_id = :out_c_id INTO :v_data;
    UPDATE customer SET c_data = SUBSTRING(:out_c_id || ' ' || :p_cd || ' ' || :p_cw || ' ' || :p_d || ' ' || :p_w || ' ' || :p_amount || ' | ' || :v_data
      FROM 1 FOR ` + strconv.Itoa(maxCData) + `) WHERE c_w_id = :p_cw AND c_d_id = :p_cd AND c_id = :out_c_id;
  END
  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
    VALUES (:out_c_id, :p_cd, :p_cw, :p_d, :p_w, CURRENT_TIMESTAMP, :v_amount, :v_hdata);
END`

var fbOrderStatus = `CREATE OR ALTER PROCEDURE orders_order_status (p_w INTEGER, p_d INTEGER, p_by_name INTEGER, p_c INTEGER, p_last VARCHAR(16))
RETURNS (out_c_id INTEGER, out_balance NUMERIC(18,2), out_o_id INTEGER, out_lines INTEGER) AS
  DECLARE VARIABLE v_n INTEGER; DECLARE VARIABLE v_carrier INTEGER; DECLARE VARIABLE v_item INTEGER;
  DECLARE VARIABLE v_supply INTEGER; DECLARE VARIABLE v_qty INTEGER; DECLARE VARIABLE v_amount NUMERIC(18,2);
  DECLARE VARIABLE v_first VARCHAR(50); DECLARE VARIABLE v_middle VARCHAR(50); DECLARE VARIABLE v_last VARCHAR(50);
  DECLARE VARIABLE v_entry TIMESTAMP; DECLARE VARIABLE v_delivery TIMESTAMP;
BEGIN
` + fbCustomerByName("p_w", "p_d") + `  SELECT c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = :p_w AND c_d_id = :p_d AND c_id = :out_c_id
    INTO :out_balance, :v_first, :v_middle, :v_last;
  SELECT o_id, o_entry_d, o_carrier_id FROM orders WHERE o_w_id = :p_w AND o_d_id = :p_d AND o_c_id = :out_c_id
    AND o_id = (SELECT MAX(o_id) FROM orders WHERE o_w_id = :p_w AND o_d_id = :p_d AND o_c_id = :out_c_id)
    INTO :out_o_id, :v_entry, :v_carrier;
  out_lines = 0;
  FOR SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line
      WHERE ol_w_id = :p_w AND ol_d_id = :p_d AND ol_o_id = :out_o_id
      INTO :v_item, :v_supply, :v_qty, :v_amount, :v_delivery DO
    out_lines = out_lines + 1;
END`

var fbDelivery = `CREATE OR ALTER PROCEDURE orders_delivery (p_w INTEGER, p_carrier INTEGER)
RETURNS (out_skipped INTEGER) AS
  DECLARE VARIABLE v_d INTEGER; DECLARE VARIABLE v_o INTEGER; DECLARE VARIABLE v_c INTEGER; DECLARE VARIABLE v_sum NUMERIC(18,2);
BEGIN
  out_skipped = 0;
  v_d = 1;
  WHILE (v_d <= ` + strconv.Itoa(DistrictsPerWarehouse) + `) DO
  BEGIN
    SELECT MIN(no_o_id) FROM new_order WHERE no_w_id = :p_w AND no_d_id = :v_d INTO :v_o;
    IF (v_o IS NULL) THEN
      out_skipped = out_skipped + 1;
    ELSE
    BEGIN
      DELETE FROM new_order WHERE no_w_id = :p_w AND no_d_id = :v_d AND no_o_id = :v_o;
      IF (ROW_COUNT = 0) THEN
        EXCEPTION ` + signalDelivered + `;
      UPDATE orders SET o_carrier_id = :p_carrier WHERE o_w_id = :p_w AND o_d_id = :v_d AND o_id = :v_o;
      SELECT o_c_id FROM orders WHERE o_w_id = :p_w AND o_d_id = :v_d AND o_id = :v_o INTO :v_c;
      UPDATE order_line SET ol_delivery_d = CURRENT_TIMESTAMP WHERE ol_w_id = :p_w AND ol_d_id = :v_d AND ol_o_id = :v_o;
      SELECT SUM(ol_amount) FROM order_line WHERE ol_w_id = :p_w AND ol_d_id = :v_d AND ol_o_id = :v_o INTO :v_sum;
      UPDATE customer SET c_balance = c_balance + :v_sum, c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = :p_w AND c_d_id = :v_d AND c_id = :v_c;
    END
    v_d = v_d + 1;
  END
END`

var fbStockLevel = `CREATE OR ALTER PROCEDURE orders_stock_level (p_w INTEGER, p_d INTEGER, p_threshold INTEGER)
RETURNS (out_low BIGINT) AS
  DECLARE VARIABLE v_next INTEGER;
BEGIN
  SELECT d_next_o_id FROM district WHERE d_w_id = :p_w AND d_id = :p_d INTO :v_next;
  SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = :p_w AND ol_d_id = :p_d AND ol_o_id < :v_next
    AND ol_o_id >= :v_next - 20 AND s_w_id = :p_w AND s_i_id = ol_i_id AND s_quantity < :p_threshold INTO :out_low;
END`
