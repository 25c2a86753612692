-- Sign-in records are kept shorter than the rest (ACTIVITY_SIGN_IN_RETENTION,
-- issue 22), and they lie among records that are kept: without an index, each
-- hourly removal read the whole table to find none (40 ms on the event loop
-- for 300,000 records on SQLite, 70-110 ms on PostgreSQL). Partial, so only
-- sign-ins are written to it: a plant's change costs no more. The retention's
-- query repeats this WHERE exactly (lib/activity/retention.ts): SQLite uses a
-- partial index only for a query whose WHERE holds the same term.
-- CreateIndex
CREATE INDEX "activity_sign_in_occurred_at_idx" ON "activity"("occurred_at") WHERE "action" IN ('sign_in.succeeded', 'sign_in.failed');
