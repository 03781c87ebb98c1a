-- Five statements in one transaction, pgbench's tpcb-like on tables of
-- this script's own (init.sql): the client-cost measure of a user script
-- on an embedded engine (bench/script-embedded.sh).
\set aid random(1, 100000 * :scale)
\set bid random(1, 1 * :scale)
\set tid random(1, 10 * :scale)
\set delta random(-5000, 5000)
BEGIN;
UPDATE acc SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM acc WHERE aid = :aid;
UPDATE tel SET tbalance = tbalance + :delta WHERE tid = :tid;
UPDATE br SET bbalance = bbalance + :delta WHERE bid = :bid;
INSERT INTO hist (tid, bid, aid, delta) VALUES (:tid, :bid, :aid, :delta);
END;
