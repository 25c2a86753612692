-- The change feed (issue 32, GET /plants/events): one row per change to a
-- plant, written by the database itself in the change's own transaction, as
-- the webhooks' outbox is, whichever way the plant was written.
--
-- "position" is what a client resumes from: an int64 that grows in commit
-- order with no gaps. A sequence cannot give it here: transactions take
-- their numbers when they write and commit in another order, and a reader
-- that has passed 7 would never see a 6 committed after it. So the change's
-- transaction writes its row with no position (its order of writing in
-- "seq") and tells the instances (NOTIFY plant_changes, sent at its commit).
-- Positions are then stamped on committed rows only, by one stamper at a
-- time (lib/live/change-stamps.ts: a transaction-scoped advisory lock, then
-- the highest position plus the rows' rank by seq): every position is given
-- after every smaller one was committed, so readers that follow positions
-- never skip one. A lost notification loses nothing: the stamper also runs
-- on every instance's own writes and on a timer.
-- "data" is the plant as the webhooks carry it, written as SQLite's
-- json_object writes it (see the webhooks migration); "tag" and
-- "previous_tag" (an update's old tag) serve ?tag=.
CREATE TABLE "plant_changes" (
    "seq" BIGSERIAL NOT NULL,
    "position" BIGINT,
    "type" TEXT NOT NULL,
    "plant_id" BIGINT NOT NULL,
    "tag" TEXT,
    "previous_tag" TEXT,
    "data" TEXT NOT NULL,
    "occurred_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "plant_changes_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE UNIQUE INDEX "plant_changes_position_key" ON "plant_changes"("position");

-- The rows still to stamp, found without a scan.
CREATE INDEX "plant_changes_unstamped_idx" ON "plant_changes"("seq") WHERE "position" IS NULL;

CREATE FUNCTION "plant_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    change_type TEXT := CASE TG_OP WHEN 'INSERT' THEN 'plant.created' WHEN 'UPDATE' THEN 'plant.updated' WHEN 'DELETE' THEN 'plant.deleted' END;
    plant "plants";
BEGIN
    IF TG_OP = 'DELETE' THEN plant := OLD; ELSE plant := NEW; END IF;
    IF TG_OP = 'UPDATE' AND OLD."name" IS NOT DISTINCT FROM NEW."name" AND OLD."tag" IS NOT DISTINCT FROM NEW."tag" THEN
        RETURN NULL;
    END IF;
    INSERT INTO "plant_changes" ("type", "plant_id", "tag", "previous_tag", "data", "occurred_at")
    VALUES (
        change_type,
        plant."id",
        plant."tag",
        CASE WHEN TG_OP = 'UPDATE' THEN OLD."tag" END,
        '{"id":' || plant."id" || ',"name":' || to_json(plant."name")::text
            || CASE WHEN plant."tag" IS NULL THEN '' ELSE ',"tag":' || to_json(plant."tag")::text END || '}',
        -- Prisma keeps DateTime as UTC in timestamp columns, whatever the session's time zone.
        clock_timestamp() AT TIME ZONE 'UTC'
    );
    -- One notification per transaction however many rows it wrote: PostgreSQL folds identical ones.
    PERFORM pg_notify('plant_changes', '');
    RETURN NULL;
END;
$$;

CREATE TRIGGER "plants_change" AFTER INSERT OR DELETE OR UPDATE OF "name", "tag" ON "plants"
FOR EACH ROW EXECUTE FUNCTION "plant_change"();
