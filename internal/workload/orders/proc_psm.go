package orders

import "strconv"

// psm is the procedures in SQL/PSM (MariaDB, MySQL): called with CALL,
// their result the one row of the SELECT that ends each. A signal is
// SQLSTATE 45000 with the token first in MESSAGE_TEXT. Local variables
// win over columns of the same name in these procedures' SQL, so every
// one is named v_ or p_, which no column is.
var psm = &procLanguage{
	create: []string{myNewOrder, myPayment, myOrderStatus, myDelivery, myStockLevel},
	drop:   dropEach("DROP PROCEDURE IF EXISTS "),
	call:   func(name string, n int) string { return "CALL " + name + "(" + placeholders(n) + ")" },
}

// myCustomerByName sets v_c to the customer of last name p_last in
// district (w, d) at position ceil(n/2) of the n sorted by c_first.
func myCustomerByName(w, d string) string {
	where := " FROM customer WHERE c_w_id = " + w + " AND c_d_id = " + d + " AND c_last = p_last"
	return `  IF p_by_name = 1 THEN
    SELECT COUNT(*) INTO v_n` + where + `;
    SET v_n = (v_n - 1) DIV 2;
    SELECT c_id INTO v_c` + where + ` ORDER BY c_first LIMIT v_n, 1;
  ELSE
    SET v_c = p_c;
  END IF;
`
}

// myLineField is field (from, width) of line v_i of p_lines as an
// integer.
func myLineField(from, width int) string {
	return "CAST(SUBSTRING(p_lines, v_i * " + strconv.Itoa(lineWidth) + " + " + strconv.Itoa(from) + ", " + strconv.Itoa(width) + ") AS SIGNED)"
}

var myNewOrder = `CREATE PROCEDURE orders_new_order(IN p_w INT, IN p_d INT, IN p_c INT, IN p_n INT, IN p_all_local INT, IN p_lines VARCHAR(240))
BEGIN
  DECLARE v_o, v_i, v_number, v_item, v_supply, v_qty, v_squant INT;
  DECLARE v_d_tax, v_w_tax, v_disc DECIMAL(4,4);
  DECLARE v_price, v_amount DECIMAL(12,2);
  DECLARE v_sum DECIMAL(12,2) DEFAULT 0;
  DECLARE v_last, v_credit, v_iname, v_idata, v_sdata, v_dist VARCHAR(50);
  DECLARE v_found INT DEFAULT 1;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_found = 0;
  UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w AND d_id = p_d;
  SELECT d_next_o_id - 1, d_tax INTO v_o, v_d_tax FROM district WHERE d_w_id = p_w AND d_id = p_d;
  SELECT w_tax INTO v_w_tax FROM warehouse WHERE w_id = p_w;
  SELECT c_discount, c_last, c_credit INTO v_disc, v_last, v_credit FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = p_c;
  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local) VALUES (v_o, p_d, p_w, p_c, CURRENT_TIMESTAMP, p_n, p_all_local);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (v_o, p_d, p_w);
  SET v_i = 0;
  WHILE v_i < p_n DO
    SET v_number = ` + myLineField(1, 2) + `;
    SET v_item = ` + myLineField(lineItem, 6) + `;
    SET v_supply = ` + myLineField(lineWh, 6) + `;
    SET v_qty = ` + myLineField(lineQty, 2) + `;
    SET v_found = 1;
    SELECT i_price, i_name, i_data INTO v_price, v_iname, v_idata FROM item WHERE i_id = v_item;
    IF v_found = 0 THEN
      SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = '` + signalUnused + `: an item of the order does not exist';
    END IF;
    UPDATE stock SET s_quantity = CASE WHEN s_quantity >= v_qty + 10 THEN s_quantity - v_qty ELSE s_quantity - v_qty + 91 END,
      s_ytd = s_ytd + v_qty, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + CASE WHEN v_supply <> p_w THEN 1 ELSE 0 END
      WHERE s_w_id = v_supply AND s_i_id = v_item;
    SELECT s_quantity, s_data, ` + distCase("p_d") + ` INTO v_squant, v_sdata, v_dist FROM stock WHERE s_w_id = v_supply AND s_i_id = v_item;
    SET v_amount = v_qty * v_price;
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info)
      VALUES (v_o, p_d, p_w, v_number, v_item, v_supply, v_qty, v_amount, v_dist);
    SET v_sum = v_sum + v_amount;
    SET v_i = v_i + 1;
  END WHILE;
  SELECT v_o, ROUND(v_sum * (1 - v_disc) * (1 + v_w_tax + v_d_tax), 2);
END`

var myPayment = `CREATE PROCEDURE orders_payment(IN p_w INT, IN p_d INT, IN p_cw INT, IN p_cd INT, IN p_by_name INT, IN p_c INT, IN p_last VARCHAR(16),
  IN p_amount VARCHAR(12), IN p_tag VARCHAR(24))
BEGIN
  DECLARE v_amount, v_balance, v_credit_lim DECIMAL(12,2);
  DECLARE v_disc DECIMAL(4,4);
  DECLARE v_n, v_c INT;
  DECLARE v_since DATETIME;
  DECLARE v_wname, v_wstreet1, v_wstreet2, v_wcity, v_wstate, v_wzip, v_dname, v_dstreet1, v_dstreet2, v_dcity, v_dstate, v_dzip,
    v_first, v_middle, v_last, v_street1, v_street2, v_city, v_state, v_zip, v_phone, v_credit, v_hdata VARCHAR(50);
  DECLARE v_data VARCHAR(` + strconv.Itoa(maxCData) + `);
  SET v_amount = CAST(p_amount AS DECIMAL(12,2));
  UPDATE warehouse SET w_ytd = w_ytd + v_amount WHERE w_id = p_w;
  SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip INTO v_wname, v_wstreet1, v_wstreet2, v_wcity, v_wstate, v_wzip
    FROM warehouse WHERE w_id = p_w;
  UPDATE district SET d_ytd = d_ytd + v_amount WHERE d_w_id = p_w AND d_id = p_d;
  SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip INTO v_dname, v_dstreet1, v_dstreet2, v_dcity, v_dstate, v_dzip
    FROM district WHERE d_w_id = p_w AND d_id = p_d;
  SET v_hdata = CONCAT(v_wname, '    ', v_dname);
  IF p_tag <> '' THEN
    SET v_hdata = p_tag;
  END IF;
` + myCustomerByName("p_cw", "p_cd") + `  UPDATE customer SET c_balance = c_balance - v_amount, c_ytd_payment = c_ytd_payment + v_amount, c_payment_cnt = c_payment_cnt + 1
    WHERE c_w_id = p_cw AND c_d_id = p_cd AND c_id = v_c;
  SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance
    INTO v_first, v_middle, v_last, v_street1, v_street2, v_city, v_state, v_zip, v_phone, v_since, v_credit, v_credit_lim, v_disc, v_balance
    FROM customer WHERE c_w_id = p_cw AND c_d_id = p_cd AND c_id = v_c;
  IF v_credit = 'BC' THEN
    SELECT c_data INTO v_data FROM customer WHERE c_w_id = p_cw AND c_d_id = p_cd AND c_id = v_c;
    UPDATE customer SET c_data = SUBSTRING(CONCAT(v_c, ' ', p_cd, ' ', p_cw, ' ', p_d, ' ', p_w, ' ', p_amount, ' | ', v_data), 1, ` + strconv.Itoa(maxCData) + `)
      WHERE c_w_id = p_cw AND c_d_id = p_cd AND c_id = v_c;
  END IF;
  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
    VALUES (v_c, p_cd, p_cw, p_d, p_w, CURRENT_TIMESTAMP, v_amount, v_hdata);
  SELECT v_c, v_balance;
END`

var myOrderStatus = `CREATE PROCEDURE orders_order_status(IN p_w INT, IN p_d INT, IN p_by_name INT, IN p_c INT, IN p_last VARCHAR(16))
BEGIN
  DECLARE v_n, v_c, v_o, v_carrier, v_item, v_supply, v_qty INT;
  DECLARE v_lines INT DEFAULT 0;
  DECLARE v_done INT DEFAULT 0;
  DECLARE v_balance, v_amount DECIMAL(12,2);
  DECLARE v_first, v_middle, v_last VARCHAR(16);
  DECLARE v_entry, v_delivery DATETIME;
  DECLARE v_cur CURSOR FOR SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line
    WHERE ol_w_id = p_w AND ol_d_id = p_d AND ol_o_id = v_o;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
` + myCustomerByName("p_w", "p_d") + `  SELECT c_balance, c_first, c_middle, c_last INTO v_balance, v_first, v_middle, v_last
    FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = v_c;
  SELECT o_id, o_entry_d, o_carrier_id INTO v_o, v_entry, v_carrier FROM orders WHERE o_w_id = p_w AND o_d_id = p_d AND o_c_id = v_c
    AND o_id = (SELECT MAX(o_id) FROM orders WHERE o_w_id = p_w AND o_d_id = p_d AND o_c_id = v_c);
  OPEN v_cur;
  line_loop: LOOP
    FETCH v_cur INTO v_item, v_supply, v_qty, v_amount, v_delivery;
    IF v_done = 1 THEN
      LEAVE line_loop;
    END IF;
    SET v_lines = v_lines + 1;
  END LOOP;
  CLOSE v_cur;
  SELECT v_c, v_balance, v_o, v_lines;
END`

var myDelivery = `CREATE PROCEDURE orders_delivery(IN p_w INT, IN p_carrier INT)
BEGIN
  DECLARE v_d, v_o, v_c INT;
  DECLARE v_skipped INT DEFAULT 0;
  DECLARE v_sum DECIMAL(12,2);
  SET v_d = 1;
  WHILE v_d <= ` + strconv.Itoa(DistrictsPerWarehouse) + ` DO
    SELECT MIN(no_o_id) INTO v_o FROM new_order WHERE no_w_id = p_w AND no_d_id = v_d;
    IF v_o IS NULL THEN
      SET v_skipped = v_skipped + 1;
    ELSE
      DELETE FROM new_order WHERE no_w_id = p_w AND no_d_id = v_d AND no_o_id = v_o;
      IF ROW_COUNT() = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = '` + signalDelivered + `: a new order was delivered by another transaction';
      END IF;
      UPDATE orders SET o_carrier_id = p_carrier WHERE o_w_id = p_w AND o_d_id = v_d AND o_id = v_o;
      SELECT o_c_id INTO v_c FROM orders WHERE o_w_id = p_w AND o_d_id = v_d AND o_id = v_o;
      UPDATE order_line SET ol_delivery_d = CURRENT_TIMESTAMP WHERE ol_w_id = p_w AND ol_d_id = v_d AND ol_o_id = v_o;
      SELECT SUM(ol_amount) INTO v_sum FROM order_line WHERE ol_w_id = p_w AND ol_d_id = v_d AND ol_o_id = v_o;
      UPDATE customer SET c_balance = c_balance + v_sum, c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = p_w AND c_d_id = v_d AND c_id = v_c;
    END IF;
    SET v_d = v_d + 1;
  END WHILE;
  SELECT v_skipped;
END`

var myStockLevel = `CREATE PROCEDURE orders_stock_level(IN p_w INT, IN p_d INT, IN p_threshold INT)
BEGIN
  DECLARE v_next INT;
  DECLARE v_low BIGINT;
  SELECT d_next_o_id INTO v_next FROM district WHERE d_w_id = p_w AND d_id = p_d;
  SELECT COUNT(DISTINCT s_i_id) INTO v_low FROM order_line, stock WHERE ol_w_id = p_w AND ol_d_id = p_d AND ol_o_id < v_next
    AND ol_o_id >= v_next - 20 AND s_w_id = p_w AND s_i_id = ol_i_id AND s_quantity < p_threshold;
  SELECT v_low;
END`
