-- AlterTable
ALTER TABLE "plants" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "plants" ADD COLUMN "updated_at" DATETIME;

-- CreateIndex
CREATE INDEX "plants_tag_id_idx" ON "plants"("tag", "id");

-- The outbox (see the webhooks migration) for changes: a plant whose name or
-- tag changed writes a plant.updated event with the plant as it is now.
CREATE TRIGGER "plants_webhook_updated" AFTER UPDATE OF "name", "tag" ON "plants"
WHEN (OLD."name" IS NOT NEW."name" OR OLD."tag" IS NOT NEW."tag")
 AND EXISTS (SELECT 1 FROM "webhook_endpoints" WHERE "enabled" AND instr(' ' || "events" || ' ', ' plant.updated ') > 0)
BEGIN
    INSERT INTO "webhook_events" ("id", "type", "data", "created_at")
    VALUES (
        'msg_' || lower(hex(randomblob(16))),
        'plant.updated',
        CASE WHEN NEW."tag" IS NULL THEN json_object('id', NEW."id", 'name', NEW."name")
             ELSE json_object('id', NEW."id", 'name', NEW."name", 'tag', NEW."tag") END,
        strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
    );
    INSERT INTO "webhook_deliveries" ("id", "event_id", "endpoint_id", "next_attempt_at", "created_at")
    SELECT 'whd_' || lower(hex(randomblob(16))),
           (SELECT "id" FROM "webhook_events" WHERE rowid = (SELECT max(rowid) FROM "webhook_events")),
           "id",
           strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'),
           strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
    FROM "webhook_endpoints" WHERE "enabled" AND instr(' ' || "events" || ' ', ' plant.updated ') > 0;
END;
