-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "events" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "previous_secret" TEXT,
    "previous_secret_expires_at" TIMESTAMP(3),
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabled_reason" TEXT,
    "disabled_at" TIMESTAMP(3),
    "failing_since" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_events" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3),
    "claimed_until" TIMESTAMP(3),
    "last_attempt_at" TIMESTAMP(3),
    "last_status" INTEGER,
    "last_error" TEXT,
    "delivered_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_events_created_at_idx" ON "webhook_events"("created_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_idx" ON "webhook_deliveries"("endpoint_id", "created_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_event_id_idx" ON "webhook_deliveries"("event_id");

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "webhook_events"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The outbox, by hand (Prisma does not model triggers): each plant created or
-- deleted writes its event, and a delivery for each enabled endpoint that asked
-- for the type, in the very transaction of the change. Nothing is written when
-- no endpoint wants the event. The data is written as SQLite's json_object
-- writes it, compact, so a delivery's body is the same on either engine; an
-- int8 is written as its exact decimal, a text through to_json.
CREATE FUNCTION "plant_webhook_event"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    event_type TEXT := CASE TG_OP WHEN 'INSERT' THEN 'plant.created' WHEN 'DELETE' THEN 'plant.deleted' END;
    plant "plants";
    event_id TEXT;
BEGIN
    IF TG_OP = 'DELETE' THEN plant := OLD; ELSE plant := NEW; END IF;
    IF NOT EXISTS (SELECT 1 FROM "webhook_endpoints" WHERE "enabled" AND event_type = ANY (string_to_array("events", ' '))) THEN
        RETURN NULL;
    END IF;
    event_id := 'msg_' || replace(gen_random_uuid()::text, '-', '');
    INSERT INTO "webhook_events" ("id", "type", "data", "created_at")
    VALUES (
        event_id,
        event_type,
        '{"id":' || plant."id" || ',"name":' || to_json(plant."name")::text
            || CASE WHEN plant."tag" IS NULL THEN '' ELSE ',"tag":' || to_json(plant."tag")::text END || '}',
        -- Prisma keeps DateTime as UTC in timestamp columns, whatever the session's time zone.
        clock_timestamp() AT TIME ZONE 'UTC'
    );
    INSERT INTO "webhook_deliveries" ("id", "event_id", "endpoint_id", "next_attempt_at", "created_at")
    SELECT 'whd_' || replace(gen_random_uuid()::text, '-', ''), event_id, "id", clock_timestamp() AT TIME ZONE 'UTC', clock_timestamp() AT TIME ZONE 'UTC'
    FROM "webhook_endpoints" WHERE "enabled" AND event_type = ANY (string_to_array("events", ' '));
    RETURN NULL;
END;
$$;

CREATE TRIGGER "plants_webhook_event" AFTER INSERT OR DELETE ON "plants"
FOR EACH ROW EXECUTE FUNCTION "plant_webhook_event"();
