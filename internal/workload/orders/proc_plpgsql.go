package orders

import "strconv"

// plpgsql is the procedures as PL/pgSQL functions (PostgreSQL): called
// with SELECT * FROM f(...), their OUT parameters the one row of the
// result. A signal is an exception raised with SQLSTATE DGU01 (unused
// item) or DGU02 (delivered), the token first in its message.
var plpgsql = &procLanguage{
	create: []string{pgNewOrder, pgPayment, pgOrderStatus, pgDelivery, pgStockLevel},
	drop:   dropEach("DROP FUNCTION IF EXISTS "),
	call:   func(name string, n int) string { return "SELECT * FROM " + name + "(" + placeholders(n) + ")" },
}

// pgCustomerByName sets out_c_id to the customer of last name p_last in
// district (w, d) at position ceil(n/2) of the n sorted by c_first.
func pgCustomerByName(w, d string) string {
	where := " FROM customer WHERE c_w_id = " + w + " AND c_d_id = " + d + " AND c_last = p_last"
	return `  IF p_by_name = 1 THEN
    SELECT count(*) INTO v_n` + where + `;
    SELECT c_id INTO out_c_id` + where + ` ORDER BY c_first OFFSET (v_n - 1) / 2 LIMIT 1;
  ELSE
    out_c_id := p_c;
  END IF;
`
}

var pgNewOrder = `CREATE FUNCTION orders_new_order(p_w integer, p_d integer, p_c integer, p_n integer, p_all_local integer, p_lines text,
  OUT out_o_id integer, OUT out_total numeric) AS $$
DECLARE
  v_d_tax numeric; v_w_tax numeric; v_disc numeric; v_last varchar; v_credit varchar;
  v_number integer; v_item integer; v_supply integer; v_qty integer;
  v_price numeric; v_iname varchar; v_idata varchar; v_squant integer; v_sdata varchar; v_dist varchar;
  v_amount numeric; v_sum numeric := 0;
BEGIN
  UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w AND d_id = p_d;
  SELECT d_next_o_id - 1, d_tax INTO out_o_id, v_d_tax FROM district WHERE d_w_id = p_w AND d_id = p_d;
  SELECT w_tax INTO v_w_tax FROM warehouse WHERE w_id = p_w;
  SELECT c_discount, c_last, c_credit INTO v_disc, v_last, v_credit FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = p_c;
  INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local) VALUES (out_o_id, p_d, p_w, p_c, CURRENT_TIMESTAMP, p_n, p_all_local);
  INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (out_o_id, p_d, p_w);
  FOR i IN 0 .. p_n - 1 LOOP
    v_number := substr(p_lines, i * ` + strconv.Itoa(lineWidth) + ` + 1, 2)::integer;
    v_item := substr(p_lines, i * ` + strconv.Itoa(lineWidth) + ` + ` + strconv.Itoa(lineItem) + `, 6)::integer;
    v_supply := substr(p_lines, i * ` + strconv.Itoa(lineWidth) + ` + ` + strconv.Itoa(lineWh) + `, 6)::integer;
    v_qty := substr(p_lines, i * ` + strconv.Itoa(lineWidth) + ` + ` + strconv.Itoa(lineQty) + `, 2)::integer;
    SELECT i_price, i_name, i_data INTO v_price, v_iname, v_idata FROM item WHERE i_id = v_item;
    IF NOT FOUND THEN
      RAISE EXCEPTION '` + signalUnused + `: item % does not exist', v_item USING ERRCODE = 'DGU01';
    END IF;
    UPDATE stock SET s_quantity = CASE WHEN s_quantity >= v_qty + 10 THEN s_quantity - v_qty ELSE s_quantity - v_qty + 91 END,
      s_ytd = s_ytd + v_qty, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + CASE WHEN v_supply <> p_w THEN 1 ELSE 0 END
      WHERE s_w_id = v_supply AND s_i_id = v_item;
    SELECT s_quantity, s_data, ` + distCase("p_d") + ` INTO v_squant, v_sdata, v_dist FROM stock WHERE s_w_id = v_supply AND s_i_id = v_item;
    v_amount := v_qty * v_price;
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info)
      VALUES (out_o_id, p_d, p_w, v_number, v_item, v_supply, v_qty, v_amount, v_dist);
    v_sum := v_sum + v_amount;
  END LOOP;
  out_total := round(v_sum * (1 - v_disc) * (1 + v_w_tax + v_d_tax), 2);
END;
$$ LANGUAGE plpgsql`

var pgPayment = `CREATE FUNCTION orders_payment(p_w integer, p_d integer, p_cw integer, p_cd integer, p_by_name integer, p_c integer, p_last varchar,
  p_amount varchar, p_tag varchar, OUT out_c_id integer, OUT out_balance numeric) AS $$
DECLARE
  v_amount numeric := CAST(p_amount AS numeric(12,2)); v_n integer; v_hdata varchar; v_data varchar;
  v_wname varchar; v_wstreet1 varchar; v_wstreet2 varchar; v_wcity varchar; v_wstate varchar; v_wzip varchar;
  v_dname varchar; v_dstreet1 varchar; v_dstreet2 varchar; v_dcity varchar; v_dstate varchar; v_dzip varchar;
  v_first varchar; v_middle varchar; v_last varchar; v_street1 varchar; v_street2 varchar; v_city varchar; v_state varchar;
  v_zip varchar; v_phone varchar; v_since timestamp; v_credit varchar; v_credit_lim numeric; v_disc numeric;
BEGIN
  UPDATE warehouse SET w_ytd = w_ytd + v_amount WHERE w_id = p_w;
  SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip INTO v_wname, v_wstreet1, v_wstreet2, v_wcity, v_wstate, v_wzip
    FROM warehouse WHERE w_id = p_w;
  UPDATE district SET d_ytd = d_ytd + v_amount WHERE d_w_id = p_w AND d_id = p_d;
  SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip INTO v_dname, v_dstreet1, v_dstreet2, v_dcity, v_dstate, v_dzip
    FROM district WHERE d_w_id = p_w AND d_id = p_d;
  v_hdata := v_wname || '    ' || v_dname;
  IF p_tag <> '' THEN
    v_hdata := p_tag;
  END IF;
` + pgCustomerByName("p_cw", "p_cd") + `  UPDATE customer SET c_balance = c_balance - v_amount, c_ytd_payment = c_ytd_payment + v_amount, c_payment_cnt = c_payment_cnt + 1
    WHERE c_w_id = p_cw AND c_d_id = p_cd AND c_id = out_c_id;
  SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance
    INTO v_first, v_middle, v_last, v_street1, v_street2, v_city, v_state, v_zip, v_phone, v_since, v_credit, v_credit_lim, v_disc, out_balance
    FROM customer WHERE c_w_id = p_cw AND c_d_id = p_cd AND c_id = out_c_id;
  IF v_credit = 'BC' THEN
    SELECT c_data INTO v_data FROM customer WHERE c_w_id = p_cw AND c_d_id = p_cd AND c_id = out_c_id;
    UPDATE customer SET c_data = substr(out_c_id || ' ' || p_cd || ' ' || p_cw || ' ' || p_d || ' ' || p_w || ' ' || p_amount || ' | ' || v_data, 1, ` + strconv.Itoa(maxCData) + `)
      WHERE c_w_id = p_cw AND c_d_id = p_cd AND c_id = out_c_id;
  END IF;
  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
    VALUES (out_c_id, p_cd, p_cw, p_d, p_w, CURRENT_TIMESTAMP, v_amount, v_hdata);
END;
$$ LANGUAGE plpgsql`

var pgOrderStatus = `CREATE FUNCTION orders_order_status(p_w integer, p_d integer, p_by_name integer, p_c integer, p_last varchar,
  OUT out_c_id integer, OUT out_balance numeric, OUT out_o_id integer, OUT out_lines integer) AS $$
DECLARE
  v_n integer; v_first varchar; v_middle varchar; v_last varchar; v_entry timestamp; v_carrier integer; v_line record;
BEGIN
` + pgCustomerByName("p_w", "p_d") + `  SELECT c_balance, c_first, c_middle, c_last INTO out_balance, v_first, v_middle, v_last
    FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = out_c_id;
  SELECT o_id, o_entry_d, o_carrier_id INTO out_o_id, v_entry, v_carrier FROM orders WHERE o_w_id = p_w AND o_d_id = p_d AND o_c_id = out_c_id
    AND o_id = (SELECT MAX(o_id) FROM orders WHERE o_w_id = p_w AND o_d_id = p_d AND o_c_id = out_c_id);
  out_lines := 0;
  FOR v_line IN SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line
      WHERE ol_w_id = p_w AND ol_d_id = p_d AND ol_o_id = out_o_id LOOP
    out_lines := out_lines + 1;
  END LOOP;
END;
$$ LANGUAGE plpgsql`

var pgDelivery = `CREATE FUNCTION orders_delivery(p_w integer, p_carrier integer, OUT out_skipped integer) AS $$
DECLARE
  v_o integer; v_c integer; v_n integer; v_sum numeric;
BEGIN
  out_skipped := 0;
  FOR v_d IN 1 .. ` + strconv.Itoa(DistrictsPerWarehouse) + ` LOOP
    SELECT MIN(no_o_id) INTO v_o FROM new_order WHERE no_w_id = p_w AND no_d_id = v_d;
    IF v_o IS NULL THEN
      out_skipped := out_skipped + 1;
      CONTINUE;
    END IF;
    DELETE FROM new_order WHERE no_w_id = p_w AND no_d_id = v_d AND no_o_id = v_o;
    GET DIAGNOSTICS v_n = ROW_COUNT;
    IF v_n = 0 THEN
      RAISE EXCEPTION '` + signalDelivered + `: new order % of district % was delivered by another transaction', v_o, v_d USING ERRCODE = 'DGU02';
    END IF;
    UPDATE orders SET o_carrier_id = p_carrier WHERE o_w_id = p_w AND o_d_id = v_d AND o_id = v_o;
    SELECT o_c_id INTO v_c FROM orders WHERE o_w_id = p_w AND o_d_id = v_d AND o_id = v_o;
    UPDATE order_line SET ol_delivery_d = CURRENT_TIMESTAMP WHERE ol_w_id = p_w AND ol_d_id = v_d AND ol_o_id = v_o;
    SELECT SUM(ol_amount) INTO v_sum FROM order_line WHERE ol_w_id = p_w AND ol_d_id = v_d AND ol_o_id = v_o;
    UPDATE customer SET c_balance = c_balance + v_sum, c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = p_w AND c_d_id = v_d AND c_id = v_c;
  END LOOP;
END;
$$ LANGUAGE plpgsql`

var pgStockLevel = `CREATE FUNCTION orders_stock_level(p_w integer, p_d integer, p_threshold integer, OUT out_low bigint) AS $$
DECLARE
  v_next integer;
BEGIN
  SELECT d_next_o_id INTO v_next FROM district WHERE d_w_id = p_w AND d_id = p_d;
  SELECT COUNT(DISTINCT s_i_id) INTO out_low FROM order_line, stock WHERE ol_w_id = p_w AND ol_d_id = p_d AND ol_o_id < v_next
    AND ol_o_id >= v_next - 20 AND s_w_id = p_w AND s_i_id = ol_i_id AND s_quantity < p_threshold;
END;
$$ LANGUAGE plpgsql`
