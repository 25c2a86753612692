-- A person's activity (the Activity page's and the CLI's person filter) is
-- found by actor_user_id; records with none (the app's, the CLI's, a token's
-- that no person owns) are never looked up by it, and writing their NULL keys
-- to the index was a third of what a 1,000-plant batch's records cost it.
-- Partial, so only records with a person are written to it; a query for
-- actor_user_id = ? implies the index's condition on both engines.
-- DropIndex
DROP INDEX "activity_actor_user_id_id_idx";

-- CreateIndex
CREATE INDEX "activity_actor_user_id_id_idx" ON "activity"("actor_user_id", "id") WHERE "actor_user_id" IS NOT NULL;
