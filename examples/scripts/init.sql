-- The tables of the example scripts at :scale: 100,000 accounts per unit
-- (up to scale 10), filled by a cross join of a table of ten digits, which
-- every engine runs (Firebird's recursive queries stop at depth 1,024, and
-- Firebird 3 has no multi-row VALUES). Firebird has its own variant,
-- init.firebird.sql, without DROP TABLE IF EXISTS.
DROP TABLE IF EXISTS ex_hist;
DROP TABLE IF EXISTS ex_acct;
DROP TABLE IF EXISTS ex_digit;
CREATE TABLE ex_digit (i INTEGER NOT NULL);
CREATE TABLE ex_acct (aid INTEGER NOT NULL PRIMARY KEY, bal INTEGER NOT NULL);
CREATE TABLE ex_hist (aid INTEGER NOT NULL, delta INTEGER NOT NULL);
INSERT INTO ex_digit (i) VALUES (0);
INSERT INTO ex_digit (i) VALUES (1);
INSERT INTO ex_digit (i) VALUES (2);
INSERT INTO ex_digit (i) VALUES (3);
INSERT INTO ex_digit (i) VALUES (4);
INSERT INTO ex_digit (i) VALUES (5);
INSERT INTO ex_digit (i) VALUES (6);
INSERT INTO ex_digit (i) VALUES (7);
INSERT INTO ex_digit (i) VALUES (8);
INSERT INTO ex_digit (i) VALUES (9);
\set n 100000 * :scale
INSERT INTO ex_acct (aid, bal) SELECT a.i + 10 * b.i + 100 * c.i + 1000 * d.i + 10000 * e.i + 100000 * f.i + 1, 0 FROM ex_digit a, ex_digit b, ex_digit c, ex_digit d, ex_digit e, ex_digit f WHERE a.i + 10 * b.i + 100 * c.i + 1000 * d.i + 10000 * e.i + 100000 * f.i < :n;
