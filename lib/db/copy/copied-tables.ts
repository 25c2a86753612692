// What `db copy` moves from one database to another (issue 23), and in which
// order. Every table the migrations make is either copied or skipped on
// purpose, and lib/db/copy/copied-tables.test.ts holds this list to the
// migrated schema on both engines, so a table added later cannot be forgotten.

/**
 * The tables copied, in the order they are written, for two reasons:
 * - foreign keys: a row's parent is written before it (users before the
 *   account_links and api_tokens that name them; webhook_events and
 *   webhook_endpoints before the webhook_deliveries between them);
 * - the outbox triggers on plants (the webhooks and plant_versions
 *   migrations) write an event, and a delivery per endpoint, for each plant
 *   written while an enabled endpoint wants it. plants go before
 *   webhook_endpoints: with no endpoint in the target yet, copying a million
 *   plants writes no event, and the events and deliveries are then copied
 *   as they were (a pending delivery stays pending, and is sent from the
 *   target);
 * - the change feed's triggers on plants (the plant_changes migration) write
 *   a change for EVERY plant written, whatever else the target holds. Those
 *   rows are the copy's own, not the source's: plant_changes comes right
 *   after plants, and is emptied of them just before the source's changes
 *   are written (TRIGGER_FILLED_TABLES), positions and all, so that an API
 *   client following the feed resumes on the target where it was.
 */
export const COPIED_TABLES = [
  "users",
  "account_links",
  "api_tokens",
  "totp_factors",
  "recovery_codes",
  "passkeys",
  "sso_identities",
  "settings",
  "plants",
  "plant_changes",
  "webhook_endpoints",
  "webhook_events",
  "webhook_deliveries",
  "activity",
] as const;

export type CopiedTable = (typeof COPIED_TABLES)[number];

/**
 * The tables the target's own triggers write to while the copy writes other
 * tables, emptied in the copy's transaction just before the source's rows are
 * written into them: the target was empty when the copy began, so every row
 * they hold by then came from the copy's own inserts.
 */
export const TRIGGER_FILLED_TABLES: readonly CopiedTable[] = ["plant_changes"];

/** The tables not copied, and why: the operator reads these in the copy's summary. */
export const SKIPPED_TABLES: Readonly<Record<string, string>> = {
  // Written by our migrator, which the target has run already: the copy refuses a target at another version.
  _prisma_migrations: "the target's own record of its migrations",
  // Counters of requests in the last minutes, on PostgreSQL (UNLOGGED: a crash empties them too); on
  // SQLite the limits live in the process and the table stays empty. Stale the moment the app stops.
  rate_limits: "rate-limit counters, which start afresh",
  // A passkey ceremony's challenge lives five minutes: one under way when the store stops is started again.
  webauthn_challenges: "WebAuthn challenges of sign-ins under way, which are asked for again",
};

/**
 * Ids the database gives (an AUTOINCREMENT rowid on SQLite, an identity on
 * PostgreSQL): after the copy, the target's counter goes on past the
 * highest id given in the source, so no id is given twice. The source's
 * counter is carried over too, not only the highest id left: an activity
 * record is never renumbered, even once the newest were removed.
 * plant_changes.seq is the order PostgreSQL's stamper gives positions in
 * (lib/live/change-stamps.ts): the target's next change must come after every
 * change copied, some of which a PostgreSQL target may still have to stamp.
 */
export const GENERATED_IDS: readonly { table: CopiedTable; column: string }[] = [
  { table: "activity", column: "id" },
  { table: "plant_changes", column: "seq" },
];
