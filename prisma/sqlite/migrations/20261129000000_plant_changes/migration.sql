-- The change feed (issue 32, GET /plants/events): one row per change to a
-- plant, written by the database itself in the change's own transaction, as
-- the webhooks' outbox is, whichever way the plant was written (the API, the
-- staff app, an import, a CLI, a restore).
--
-- "position" is what a client resumes from: an int64 that grows in commit
-- order with no gaps, so "after position p" is exact. SQLite has one writer
-- at a time, holding its lock from its first write to its commit, so the next
-- position is the highest so far plus one, read in the writing transaction
-- itself (through the unique index: one lookup). "seq" is the rowid; it
-- matters on PostgreSQL only, where positions are stamped after the commit
-- (see that engine's migration); the two engines keep the same table.
-- "data" is the plant as the webhooks carry it, exact JSON written by
-- json_object (ids digit for digit); "tag" and "previous_tag" (an update's
-- old tag) serve ?tag=, so a plant moving out of a tag is seen leaving it.
CREATE TABLE "plant_changes" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "position" BIGINT,
    "type" TEXT NOT NULL,
    "plant_id" BIGINT NOT NULL,
    "tag" TEXT,
    "previous_tag" TEXT,
    "data" TEXT NOT NULL,
    "occurred_at" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "plant_changes_position_key" ON "plant_changes"("position");

-- The rows PostgreSQL has yet to stamp; always empty here.
CREATE INDEX "plant_changes_unstamped_idx" ON "plant_changes"("seq") WHERE "position" IS NULL;

CREATE TRIGGER "plants_change_created" AFTER INSERT ON "plants"
BEGIN
    INSERT INTO "plant_changes" ("position", "type", "plant_id", "tag", "data", "occurred_at")
    VALUES (
        (SELECT coalesce(max("position"), 0) + 1 FROM "plant_changes"),
        'plant.created',
        NEW."id",
        NEW."tag",
        CASE WHEN NEW."tag" IS NULL THEN json_object('id', NEW."id", 'name', NEW."name")
             ELSE json_object('id', NEW."id", 'name', NEW."name", 'tag', NEW."tag") END,
        strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
    );
END;

CREATE TRIGGER "plants_change_updated" AFTER UPDATE OF "name", "tag" ON "plants"
WHEN (OLD."name" IS NOT NEW."name" OR OLD."tag" IS NOT NEW."tag")
BEGIN
    INSERT INTO "plant_changes" ("position", "type", "plant_id", "tag", "previous_tag", "data", "occurred_at")
    VALUES (
        (SELECT coalesce(max("position"), 0) + 1 FROM "plant_changes"),
        'plant.updated',
        NEW."id",
        NEW."tag",
        OLD."tag",
        CASE WHEN NEW."tag" IS NULL THEN json_object('id', NEW."id", 'name', NEW."name")
             ELSE json_object('id', NEW."id", 'name', NEW."name", 'tag', NEW."tag") END,
        strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
    );
END;

CREATE TRIGGER "plants_change_deleted" AFTER DELETE ON "plants"
BEGIN
    INSERT INTO "plant_changes" ("position", "type", "plant_id", "tag", "data", "occurred_at")
    VALUES (
        (SELECT coalesce(max("position"), 0) + 1 FROM "plant_changes"),
        'plant.deleted',
        OLD."id",
        OLD."tag",
        CASE WHEN OLD."tag" IS NULL THEN json_object('id', OLD."id", 'name', OLD."name")
             ELSE json_object('id', OLD."id", 'name', OLD."name", 'tag', OLD."tag") END,
        strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
    );
END;
