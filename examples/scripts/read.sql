-- A point read of one account's balance.
\set aid random(1, 100000 * :scale)
SELECT bal FROM ex_acct WHERE aid = :aid;
