-- The Activity and Team pages following changes (issue 32): every instance
-- hears at once that activity was recorded, whatever recorded it (a page, the
-- API, a CLI), without polling. The notification only wakes the instances'
-- one reader (lib/live/activity-tail.ts), which reads the table itself; one
-- per transaction, however many records it wrote (PostgreSQL folds them). On
-- SQLite the workers learn of it through the file (PRAGMA data_version).
CREATE FUNCTION "activity_recorded"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('activity_recorded', '');
    RETURN NULL;
END;
$$;

CREATE TRIGGER "activity_recorded" AFTER INSERT ON "activity"
FOR EACH STATEMENT EXECUTE FUNCTION "activity_recorded"();
