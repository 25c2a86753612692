-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "events" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "previous_secret" TEXT,
    "previous_secret_expires_at" DATETIME,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabled_reason" TEXT,
    "disabled_at" DATETIME,
    "failing_since" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "webhook_events" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "type" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "event_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" DATETIME,
    "claimed_until" DATETIME,
    "last_attempt_at" DATETIME,
    "last_status" INTEGER,
    "last_error" TEXT,
    "delivered_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "webhook_events" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "webhook_events_created_at_idx" ON "webhook_events"("created_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_idx" ON "webhook_deliveries"("endpoint_id", "created_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_event_id_idx" ON "webhook_deliveries"("event_id");

-- The outbox, by hand (Prisma does not model triggers): each plant created or
-- deleted writes its event, and a delivery for each enabled endpoint that asked
-- for the type, in the very transaction of the change. Nothing is written when
-- no endpoint wants the event. Times are written as Prisma writes DateTime here.
-- The event just inserted is the one with the highest rowid: SQLite has one
-- writer at a time.
CREATE TRIGGER "plants_webhook_created" AFTER INSERT ON "plants"
WHEN EXISTS (SELECT 1 FROM "webhook_endpoints" WHERE "enabled" AND instr(' ' || "events" || ' ', ' plant.created ') > 0)
BEGIN
    INSERT INTO "webhook_events" ("id", "type", "data", "created_at")
    VALUES (
        'msg_' || lower(hex(randomblob(16))),
        'plant.created',
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
    FROM "webhook_endpoints" WHERE "enabled" AND instr(' ' || "events" || ' ', ' plant.created ') > 0;
END;

CREATE TRIGGER "plants_webhook_deleted" AFTER DELETE ON "plants"
WHEN EXISTS (SELECT 1 FROM "webhook_endpoints" WHERE "enabled" AND instr(' ' || "events" || ' ', ' plant.deleted ') > 0)
BEGIN
    INSERT INTO "webhook_events" ("id", "type", "data", "created_at")
    VALUES (
        'msg_' || lower(hex(randomblob(16))),
        'plant.deleted',
        CASE WHEN OLD."tag" IS NULL THEN json_object('id', OLD."id", 'name', OLD."name")
             ELSE json_object('id', OLD."id", 'name', OLD."name", 'tag', OLD."tag") END,
        strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
    );
    INSERT INTO "webhook_deliveries" ("id", "event_id", "endpoint_id", "next_attempt_at", "created_at")
    SELECT 'whd_' || lower(hex(randomblob(16))),
           (SELECT "id" FROM "webhook_events" WHERE rowid = (SELECT max(rowid) FROM "webhook_events")),
           "id",
           strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'),
           strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
    FROM "webhook_endpoints" WHERE "enabled" AND instr(' ' || "events" || ' ', ' plant.deleted ') > 0;
END;
