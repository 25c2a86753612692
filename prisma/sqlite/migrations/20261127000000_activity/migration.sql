-- The activity record (issue 22): one row per change the app makes, written in
-- the change's own transaction. The id is the rowid, counted up and never
-- reused (AUTOINCREMENT), so "newest first" is the id's order, whatever the
-- clocks said.
CREATE TABLE "activity" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "occurred_at" DATETIME NOT NULL,
    "action" TEXT NOT NULL,
    "actor_kind" TEXT NOT NULL,
    "actor_user_id" TEXT,
    "actor_token_id" TEXT,
    "actor_name" TEXT NOT NULL,
    "client_address" TEXT,
    "user_agent" TEXT,
    "request_id" TEXT,
    "subject_kind" TEXT NOT NULL,
    "subject_id" TEXT NOT NULL,
    "changes" TEXT NOT NULL
);

-- Two indexes only, for a subject's history and a person's activity: every
-- index is written with every change, and a create is to lose no more than
-- 5 % of its throughput to its record (issue 22). The id grows with time.
-- CreateIndex
CREATE INDEX "activity_subject_kind_subject_id_id_idx" ON "activity"("subject_kind", "subject_id", "id");

-- CreateIndex
CREATE INDEX "activity_actor_user_id_id_idx" ON "activity"("actor_user_id", "id");
