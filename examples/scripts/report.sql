-- A report over 100 neighbouring accounts: a short range scan.
\set first random(1, 100000 * :scale - 99)
SELECT count(*), sum(bal) FROM ex_acct WHERE aid BETWEEN :first AND :first + 99;
