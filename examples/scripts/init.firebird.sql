-- init.sql for Firebird: the same tables and rows, made by RECREATE
-- TABLE, since Firebird 3 has no DROP TABLE IF EXISTS. dbgauge runs this
-- file instead of init.sql on Firebird (a per-engine variant, found beside
-- init.sql by its name).
RECREATE TABLE ex_digit (i INTEGER NOT NULL);
RECREATE TABLE ex_acct (aid INTEGER NOT NULL PRIMARY KEY, bal INTEGER NOT NULL);
RECREATE TABLE ex_hist (aid INTEGER NOT NULL, delta INTEGER NOT NULL);
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
