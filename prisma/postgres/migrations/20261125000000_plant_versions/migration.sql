-- AlterTable
ALTER TABLE "plants" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN "updated_at" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "plants_tag_id_idx" ON "plants"("tag", "id");

-- The outbox (see the webhooks migration) for changes too: a plant whose name
-- or tag changed writes a plant.updated event with the plant as it is now.
CREATE OR REPLACE FUNCTION "plant_webhook_event"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    event_type TEXT := CASE TG_OP WHEN 'INSERT' THEN 'plant.created' WHEN 'UPDATE' THEN 'plant.updated' WHEN 'DELETE' THEN 'plant.deleted' END;
    plant "plants";
    event_id TEXT;
BEGIN
    IF TG_OP = 'DELETE' THEN plant := OLD; ELSE plant := NEW; END IF;
    IF TG_OP = 'UPDATE' AND OLD."name" IS NOT DISTINCT FROM NEW."name" AND OLD."tag" IS NOT DISTINCT FROM NEW."tag" THEN
        RETURN NULL;
    END IF;
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

CREATE TRIGGER "plants_webhook_updated" AFTER UPDATE OF "name", "tag" ON "plants"
FOR EACH ROW EXECUTE FUNCTION "plant_webhook_event"();
