-- A plant change's webhook deliveries are due from the moment they are written,
-- to the millisecond the column keeps. clock_timestamp() has microseconds, and a
-- TIMESTAMP(3) column rounds them: a delivery written at .1236 was due at .124,
-- so a worker that looked for due deliveries within the same millisecond (at
-- .123, as a nudge after the commit can) passed over it until its next poll.
-- The outbox's times are now cut to the millisecond instead, as SQLite's are.
CREATE OR REPLACE FUNCTION "plant_webhook_event"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    event_type TEXT := CASE TG_OP WHEN 'INSERT' THEN 'plant.created' WHEN 'UPDATE' THEN 'plant.updated' WHEN 'DELETE' THEN 'plant.deleted' END;
    plant "plants";
    event_id TEXT;
    -- Milliseconds, as the column keeps them, cut rather than rounded (timestamp(3) rounds).
    written_at TIMESTAMP(3) := date_trunc('milliseconds', clock_timestamp() AT TIME ZONE 'UTC');
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
        written_at
    );
    INSERT INTO "webhook_deliveries" ("id", "event_id", "endpoint_id", "next_attempt_at", "created_at")
    SELECT 'whd_' || replace(gen_random_uuid()::text, '-', ''), event_id, "id", written_at, written_at
    FROM "webhook_endpoints" WHERE "enabled" AND event_type = ANY (string_to_array("events", ' '));
    RETURN NULL;
END;
$$;
