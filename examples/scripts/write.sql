-- A transfer into one account, logged.
\set aid random(1, 100000 * :scale)
\set delta random(-5000, 5000)
BEGIN;
UPDATE ex_acct SET bal = bal + :delta WHERE aid = :aid;
INSERT INTO ex_hist (aid, delta) VALUES (:aid, :delta);
COMMIT;
