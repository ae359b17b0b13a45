-- Idempotency keys are claimed inside the request's unit of work (kernel/db-unit.ts): a
-- transaction-scoped advisory lock held while the write runs, and the row written with the
-- answer in the same transaction as the write's effect. A row is therefore always a finished
-- answer; the run id of a claim is gone, and so are open claims left by the previous scheme
-- (their runs are over: a retry may run again).
delete from idempotency_keys where status is null;
alter table idempotency_keys drop column claim;
alter table idempotency_keys alter column status set not null;
