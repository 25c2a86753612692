import type { Attribution } from "@/lib/activity/actor";
import { type ActivityRecord, readyRecord, recordActivityNow, recordWrittenSql } from "@/lib/activity/record";
import { type NewPlantInput, storeNewPlantsNow } from "@/lib/plants/new-plants-now";
import { type CommitFigures, primaryStoresPlants, storeThroughPrimary, type StoredThroughPrimary } from "@/lib/plants/plant-writer";
import { db, isWriteConflict, Prisma, type WriteTimes, writeNow, writeOnPostgres } from "@/lib/db/client";
import { bigintCell, type Cell, dateCell, type DirectRow, directQuery, optionalDateCell, optionalStringCell, readRows, stringCell } from "@/lib/db/direct-reads";
import { groupCommit } from "@/lib/db/group-commit";
import { announcePlantChanges } from "@/lib/live/change-signal";
import { PlantConflictError, PlantNotFoundError } from "@/lib/plants/plant-errors";
import { plantCountQuery, plantListQuery, type PlantOrder, plantPageQuery, type PlantSearch, TAGS_IN_USE } from "@/lib/plants/plant-search";
import type { PlantVersion } from "@/lib/plants/plant-version";
import { env } from "@/lib/server/env";
import { metrics } from "@/lib/server/metrics";
import type { ListPlantsQuery, NewPlant, Plant, PlantFilter } from "@/lib/validations/plant";
import { wakeWebhookWorker } from "@/lib/webhooks/worker-signal";

// Data access for plants; returns plain objects, never Prisma rows, and
// throws the domain errors of lib/plants/plant-errors.ts. Every write is
// attributed (`by`): its activity record (lib/activity/record.ts) is written
// in the write's own transaction, one per plant stored, changed or deleted,
// none for a write that changed nothing or was refused.

export type { Plant };

/** A stored plant and its version (lib/plants/plant-version.ts): what an answer carrying one plant needs for its ETag. */
export type VersionedPlant = PlantVersion & { plant: Plant };

const PLANT_FIELDS = { id: true, name: true, tag: true } as const;

function toPlant(row: { id: bigint; name: string; tag?: string | null }): Plant {
  return row.tag == null ? { id: row.id, name: row.name } : { id: row.id, name: row.name, tag: row.tag };
}

// Four bound values a row; far below SQLite's limit of 32766 per statement.
const MAX_ROWS_PER_INSERT = 500;

/** A plant createPlant answers: stored now, or found stored already (an identical repeat, which wrote nothing). */
export type CreatedPlant = VersionedPlant & { status: "stored" | "already stored" };

/**
 * Stores a plant. Creating is idempotent: repeating an identical request
 * returns the stored plant and writes nothing (status "already stored"); the
 * same id with other data is a PlantConflictError. The primary key, not a
 * prior read, decides races.
 *
 * A durable commit costs an fsync (about 1 ms on this machine), which
 * better-sqlite3 makes on the event loop, so plants that arrive together are
 * written together (lib/db/group-commit.ts). SQLite writes one transaction at
 * a time, whichever process's: there each batch is what arrived while the
 * last was written, and it holds the lock only for its statements and fsync.
 */
const storeAttributed = groupCommit(async (inputs: { plant: NewPlant; by: Attribution }[]) => {
  try {
    const outcomes = await decideAttributed(inputs.map((input) => input.plant), inputs.map((input) => input.by));
    return outcomes.map((outcome) =>
      outcome.status === "conflict"
        ? { status: "rejected", reason: outcome.error }
        : { status: "fulfilled", value: { status: outcome.status, ...versioned(outcome) } },
    );
  } finally {
    // The batch may have written plant.created events (the outbox triggers): no need to wait for the next poll.
    wakeWebhookWorker();
    announcePlantChanges();
  }
}, MAX_ROWS_PER_INSERT, { oneAtATime: () => env().database.provider === "sqlite" });

export const createPlant = (plant: NewPlant, by: Attribution): Promise<CreatedPlant> => storeAttributed({ plant, by });

/**
 * Decides new plants outside a transaction of the caller's, each recorded by
 * its own attribution. Each plant stored and its record are one commit,
 * whoever's request it was: on PostgreSQL one statement writes both
 * (insertNew), so no transaction's extra round trips are paid; on SQLite the
 * statements share one transaction written in one synchronous step, still
 * one commit and one fsync.
 */
function decideAttributed(plants: readonly NewPlant[], by: readonly Attribution[]): Promise<NewPlantOutcome[]> {
  if (env().database.provider === "sqlite") return decideNewPlantsSqlite(plants, by);
  metrics().groupCommitBatch.observe(plants.length);
  return decideNewPlants(undefined, plants, by);
}

/** A SQLite commit's figures, counted once, in the process that asked for it. */
function observeCommit({ plants, ...times }: CommitFigures): void {
  metrics().groupCommitBatch.observe(plants);
  observeWriteLock(times);
}

/** How long one of SQLite's plant writes (new plants, a change, a delete) held the write lock, and its COMMIT's share. */
function observeWriteLock({ heldSeconds, commitSeconds }: WriteTimes): void {
  metrics().sqliteWriteLockHeld.observe(heldSeconds);
  metrics().sqliteCommit.observe(commitSeconds);
}

/** What became of a new plant: stored now, found stored already (the same plant, with its version), or refused for another plant with its id. */
export type NewPlantOutcome = ({ status: "stored" | "already stored" } & VersionedPlant) | { status: "conflict"; error: PlantConflictError };

const versioned = ({ plant, version, createdAt }: VersionedPlant): VersionedPlant => ({ plant, version, createdAt });

// A batch's transaction may wait for other transactions and for row locks held by
// other batches; it must still end well within a request's time.
const BATCH_TRANSACTION = { maxWait: 10_000, timeout: 25_000 };
// Ids are taken in ascending order (insertNew), so batches sharing ids do not
// deadlock each other on PostgreSQL; should one still be ended as a deadlock
// (a plant deleted and created again meanwhile, say), nothing of it was kept
// and it is tried again.
const BATCH_ATTEMPTS = 3;

/**
 * Stores a batch of new plants (POST /plants/batch) in one transaction: all of
 * the new ones, or, if the database fails, none. Each plant is decided as
 * createPlant decides it; of two with one id, the first in the batch decides.
 * One outcome per plant, in the batch's order.
 */
export async function createPlants(plants: readonly NewPlant[], by: Attribution): Promise<NewPlantOutcome[]> {
  if (plants.length === 0) return [];
  if (env().database.provider === "sqlite") {
    // A batch is written here, in a transaction of its own, whatever the number of workers.
    const outcomes = await decideNewPlantsSqlite(plants, plants.map(() => by), { here: true });
    // The batch may have written plant.created events.
    wakeWebhookWorker();
    announcePlantChanges();
    return outcomes;
  }
  // Stable: of two plants with one id, the first still comes first.
  const order = plants.map((_, index) => index).sort((a, b) => compareIds(plants[a]!.id, plants[b]!.id));
  const sorted = order.map((index) => plants[index]!);
  const decided = await withRetries(() =>
    db().$transaction(async (tx) => {
      const outcomes: NewPlantOutcome[] = [];
      for (let start = 0; start < sorted.length; start += MAX_ROWS_PER_INSERT) {
        const slice = sorted.slice(start, start + MAX_ROWS_PER_INSERT);
        outcomes.push(...(await decideNewPlants(tx, slice, slice.map(() => by))));
      }
      return outcomes;
    }, BATCH_TRANSACTION),
  );
  // The batch may have written plant.created events.
  wakeWebhookWorker();
  announcePlantChanges();
  const outcomes = new Array<NewPlantOutcome>(plants.length);
  order.forEach((index, position) => (outcomes[index] = decided[position]!));
  return outcomes;
}

async function withRetries<T>(attempt: () => Promise<T>): Promise<T> {
  for (let attempts = 1; ; attempts++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isWriteConflict(error) || attempts === BATCH_ATTEMPTS) throw error;
    }
  }
}

const compareIds = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

type Client = Prisma.TransactionClient;

/**
 * SQLite's decideNewPlants: the plants stored in one synchronous write
 * (lib/plants/new-plants-now.ts), here or, in a worker of several, by the
 * cluster primary for every worker at once (lib/plants/plant-writer.ts);
 * each result then decided as decideNewPlants decides it. The records are
 * made first: the lock is held only to run the statements and commit.
 */
async function decideNewPlantsSqlite(plants: readonly NewPlant[], by: readonly Attribution[], { here = false } = {}): Promise<NewPlantOutcome[]> {
  const inputs = plants.map((plant, index) => ({ plant, record: readyRecord(createdRecord(plant, by[index]!)) }));
  const { createdAt, results, commit } = !here && primaryStoresPlants() ? await storeThroughPrimary(inputs) : await storeHere(inputs);
  if (commit) observeCommit(commit);
  return results.map((result, index): NewPlantOutcome => {
    const plant = plants[index]!;
    // A new row is at version 1 (the column's default).
    return result.stored ? { status: "stored", plant: toPlant(plant), version: 1, createdAt } : outcomeBeside(plant, { id: plant.id, ...result.row });
  });
}

async function storeHere(inputs: NewPlantInput[]): Promise<StoredThroughPrimary> {
  const createdAt = new Date();
  let times: WriteTimes | undefined;
  const results = await writeNow((write) => storeNewPlantsNow(write, inputs, createdAt), (measured) => (times = measured));
  return { createdAt, results, commit: times && { ...times, plants: inputs.length } };
}

const createdRecord = (plant: NewPlant, by: Attribution): ActivityRecord => ({
  action: "plant.created",
  subjectKind: "plant",
  subjectId: String(plant.id),
  changes: { after: toPlant(plant) },
  by,
});

/**
 * PostgreSQL: decides each plant: stored if its id is free (one statement for
 * all), the stored plant if its id holds the same plant, a conflict
 * otherwise; of two plants with one id, the first is inserted and the second
 * meets it as stored. One outcome per plant, in order. Each one stored now is
 * recorded, by its own attribution (`by`, one per plant), in the statement
 * that stores it. In the caller's transaction (`client`, a batch's), or
 * without one (undefined, the group commit's): then each statement commits
 * alone, on the pool itself rather than through Prisma (lib/db/postgres-writes.ts).
 */
async function decideNewPlants(client: Client | undefined, plants: readonly NewPlant[], by: readonly Attribution[]): Promise<NewPlantOutcome[]> {
  const outcomes = new Array<NewPlantOutcome>(plants.length);
  let undecided = plants.map((_, index) => index);
  while (undecided.length > 0) {
    const createdAt = new Date();
    const inserted = await insertNew(client, undecided.map((index) => ({ plant: plants[index]!, by: by[index]! })), createdAt);
    const taken = undecided.filter((index) => {
      // delete(): a second plant with the same id in this batch finds it gone and is checked against the stored one.
      if (!inserted.delete(plants[index]!.id)) return true;
      // A new row is at version 1 (the column's default).
      outcomes[index] = { status: "stored", plant: toPlant(plants[index]!), version: 1, createdAt };
      return false;
    });
    const stored = await findStored(client ?? db(), taken.map((index) => plants[index]!.id));
    // A plant deleted since the insert found its id taken is tried again as a new plant.
    undecided = taken.filter((index) => {
      const plant = plants[index]!;
      const row = stored.get(plant.id);
      if (!row) return true;
      outcomes[index] = outcomeBeside(plant, row);
      return false;
    });
  }
  return outcomes;
}

/** A new plant whose id is taken by `row`: the same plant already stored, or a conflict. */
function outcomeBeside(plant: NewPlant, row: StoredRow): NewPlantOutcome {
  const same = row.name === plant.name && row.tag === (plant.tag ?? null);
  const { version, createdAt } = row;
  return same ? { status: "already stored", plant: toPlant(row), version, createdAt } : { status: "conflict", error: new PlantConflictError(plant.id) };
}

/**
 * What createPlants would answer for these plants at this moment, writing
 * nothing: the staff import's preview (issue 11). One read of the stored
 * plants with these ids, then each plant decided in the batch's order as
 * decideNewPlants decides it: a free id would be stored, and a later plant
 * with that id meets the first as stored; a taken id is the same plant
 * already stored, or a conflict. Others may write before the batch runs, so
 * the batch's own answer may differ; this one never changes the store.
 */
export async function previewCreatePlants(plants: readonly NewPlant[]): Promise<NewPlantOutcome[]> {
  const ids = [...new Set(plants.map((plant) => plant.id))];
  const stored = new Map<bigint, StoredRow>();
  // Read in the slices createPlants writes in, so no statement nears an engine's limit on bound values.
  for (let start = 0; start < ids.length; start += MAX_ROWS_PER_INSERT) {
    for (const [id, row] of await findStored(db(), ids.slice(start, start + MAX_ROWS_PER_INSERT))) stored.set(id, row);
  }
  const createdAt = new Date();
  return plants.map((plant) => {
    const row = stored.get(plant.id);
    if (row) return outcomeBeside(plant, row);
    stored.set(plant.id, { id: plant.id, name: plant.name, tag: plant.tag ?? null, version: 1, createdAt });
    return { status: "stored", plant: toPlant(plant), version: 1, createdAt };
  });
}

/**
 * PostgreSQL: inserts every plant whose id is free, and records each, in one
 * statement; returns the ids inserted. Of two rows with one id, the first is
 * kept. Rows go in ascending id order (a stable sort), so writers that meet
 * take the ids' locks in one order and cannot deadlock.
 */
async function insertNew(client: Client | undefined, inputs: { plant: NewPlant; by: Attribution }[], createdAt: Date): Promise<Set<bigint>> {
  const sorted = [...inputs].sort((a, b) => compareIds(a.plant.id, b.plant.id));
  const rows = sorted.map(({ plant }) => Prisma.sql`(${plant.id}, ${plant.name}, ${plant.tag ?? null}, ${createdAt})`);
  // Of two inputs with one id, the first is the one inserted, and the one recorded.
  const records = new Map<bigint, ActivityRecord>();
  for (const { plant, by } of sorted) {
    if (!records.has(plant.id)) records.set(plant.id, createdRecord(plant, by));
  }
  const statement = Prisma.sql`
    WITH "inserted" AS (
      INSERT INTO plants (id, name, tag, created_at) VALUES ${Prisma.join(rows)}
      ON CONFLICT (id) DO NOTHING RETURNING id, created_at
    ), "recorded" AS (
      ${recordWrittenSql([...records.values()], Prisma.sql`"inserted"`, Prisma.sql`"inserted"."created_at"`)}
    )
    SELECT id FROM "inserted"`;
  const inserted = client ? await client.$queryRaw<{ id: bigint }[]>(statement) : await writeOnPostgres<{ id: string }>(statement);
  return new Set(inserted.map((row) => BigInt(row.id)));
}

type StoredRow = { id: bigint; name: string; tag: string | null; version: number; createdAt: Date };

async function findStored(client: Client, ids: bigint[]): Promise<Map<bigint, StoredRow>> {
  if (ids.length === 0) return new Map();
  const rows = await client.plant.findMany({ where: { id: { in: ids } }, select: { ...PLANT_FIELDS, version: true, createdAt: true } });
  return new Map(rows.map((row) => [row.id, row]));
}

// The staff list (issue 11): the API's filters, in the order a person picks,
// numbered pages, and the total of the match. Its SQL is lib/plants/plant-search.ts.

export type ListedPlant = Plant & { createdAt: Date };
export type PlantListPage = {
  plants: ListedPlant[];
  /** How many plants match the filter, on every page. */
  total: number;
  /** The page asked for, counted from 1; it may lie past the last page, and then has no plants. */
  page: number;
  /** How many pages the match fills; 1 when nothing matches. */
  pageCount: number;
};

export const PLANTS_PAGE_SIZE = 20;

export async function findPlantsPage(
  { filter, order, page }: { filter: PlantFilter; order: PlantOrder; page: number },
  pageSize = PLANTS_PAGE_SIZE,
): Promise<PlantListPage> {
  const { query, values } = plantListQuery(filter, order, { offset: (page - 1) * pageSize, limit: pageSize });
  const [count, rows] = await Promise.all([countPlants(filter), readRows(query, values)]);
  const total = Number(count);
  const plants = rows.map((row) => ({ ...plantFromRow(row), createdAt: dateCell(row.created_at) }));
  return { plants, total, page, pageCount: Math.max(1, Math.ceil(total / pageSize)) };
}

/** The tags plants have, for the tag filter to suggest; a bounded few, ignoring case in their order. */
export async function listTagsInUse(limit = 200): Promise<string[]> {
  return (await readRows(TAGS_IN_USE, [limit])).map((row) => stringCell(row.tag));
}

export type PlantPage = {
  plants: Plant[];
  /** The cursor for the next page (the last id answered), present while more plants remain. */
  nextAfter?: bigint;
};

// The API's reads are direct reads (lib/db/direct-reads.ts): the list is the
// hot one, and one plant costs the same to read either way. Its SQL, filters
// included, is lib/plants/plant-search.ts.
const ONE_PLANT = directQuery(`SELECT "id", "name", "tag", "version", "created_at" FROM "plants" WHERE "id" = ?`);

function plantFromRow(row: DirectRow): Plant {
  return toPlant({ id: bigintCell(row.id), name: stringCell(row.name), tag: optionalStringCell(row.tag) });
}

/** Matching plants in id order, `limit` at a time, after the `after` cursor. One more row than asked says whether another page exists. */
export async function listPlants({ limit, after, tag, q }: ListPlantsQuery): Promise<PlantPage> {
  const { query, values } = plantPageQuery({ tag, q, after }, limit + 1);
  const rows = await readRows(query, values);
  const plants = rows.slice(0, limit).map(plantFromRow);
  const last = plants.at(-1);
  return rows.length > limit && last ? { plants, nextAfter: last.id } : { plants };
}

/** How many plants match the filter, whatever page a client is on. */
export async function countPlants(filter: PlantFilter): Promise<bigint> {
  const { query, values } = plantCountQuery(filter);
  const [row] = await readRows(query, values);
  return bigintCell(row?.count);
}

/**
 * Every matching plant in id order, a page of `pageSize` at a time, for an
 * export: each page is read when the consumer asks for it (keyset paging,
 * past the reader's kept answers), so a large store is never in memory at
 * once. Not a snapshot: a plant deleted before its page is read is not
 * given, one created behind the cursor is not seen; none is given twice.
 */
export async function* plantPages(found: PlantSearch, pageSize: number): AsyncGenerator<Plant[]> {
  let after = found.after;
  for (;;) {
    const { query, values } = plantPageQuery({ ...found, after }, pageSize);
    const plants = (await readRows(query, values, { keep: false })).map(plantFromRow);
    if (plants.length > 0) yield plants;
    const last = plants.at(-1);
    if (plants.length < pageSize || !last) return;
    after = last.id;
  }
}

/** A stored plant as the staff see it: its version, and when it was added and last changed (null until it is). */
export type PlantRecord = VersionedPlant & { updatedAt: Date | null };

const PLANT_RECORD = directQuery(`SELECT "id", "name", "tag", "version", "created_at", "updated_at" FROM "plants" WHERE "id" = ?`);

/** The plant with this id as the staff see it, or undefined when there is none. */
export async function findPlantRecord(id: bigint): Promise<PlantRecord | undefined> {
  const [row] = await readRows(PLANT_RECORD, [id]);
  if (!row) return undefined;
  return { plant: plantFromRow(row), version: Number(bigintCell(row.version)), createdAt: dateCell(row.created_at), updatedAt: optionalDateCell(row.updated_at) };
}

export async function getPlant(id: bigint): Promise<Plant> {
  return (await getVersionedPlant(id)).plant;
}

export async function getVersionedPlant(id: bigint): Promise<VersionedPlant> {
  const current = await readCurrent(id);
  if (!current) throw new PlantNotFoundError(id);
  return current.stored;
}

/**
 * A plant as read now, with its created_at cell exactly as the driver gave
 * it: a write bound to it meets the very value stored, whatever text a SQLite
 * row holds its time in.
 */
type CurrentPlant = { stored: VersionedPlant; createdAtCell: Cell };

async function readCurrent(id: bigint): Promise<CurrentPlant | undefined> {
  const [row] = await readRows(ONE_PLANT, [id]);
  if (!row) return undefined;
  const stored = { plant: plantFromRow(row), version: Number(bigintCell(row.version)), createdAt: dateCell(row.created_at) };
  return { stored, createdAtCell: row.created_at ?? null };
}

/**
 * A conditional write's condition (a request's If-Match and If-None-Match,
 * say): called with the version of the plant the write is about to be made
 * to, conditionally on that very version; what it throws ends the write, and
 * nothing is written. A plant that does not exist is never written, and
 * the check is not called.
 */
export type VersionCheck = (current: PlantVersion) => unknown;

// What an attempt answers when the plant changed between the read and the write.
const LOST_RACE = Symbol("lost race");

/**
 * Writes a plant only as it was read: reads it, checks the condition, and
 * lets `attempt` write under a compare-and-swap on what was read (WHERE
 * version = ? AND created_at = ?, so neither another change nor a new plant
 * under the same id is overwritten). When the plant changed in between, the
 * attempt matches no row and all is done again on the plant as it is now, so
 * no change is lost and the condition is judged against the version written.
 */
async function writeAsRead<T>(id: bigint, check: VersionCheck | undefined, attempt: (current: CurrentPlant) => Promise<T | typeof LOST_RACE>): Promise<T> {
  let lost: VersionedPlant | undefined;
  for (;;) {
    const current = await readCurrent(id);
    if (!current) throw new PlantNotFoundError(id);
    const { version, createdAt } = current.stored;
    check?.({ version, createdAt });
    // A race is lost only to a write committed in between, which the next read sees: without one, the
    // compare-and-swap cannot match (a bug), and trying again would never end.
    if (lost && lost.version === version && lost.createdAt.getTime() === createdAt.getTime()) {
      throw new Error(`plant ${id}: a write as read matched no row, yet the plant is unchanged`);
    }
    const outcome = await attempt(current);
    if (outcome !== LOST_RACE) return outcome;
    lost = current.stored;
  }
}

/**
 * Changes a plant's name and tag to what `change` makes of the stored plant
 * (called again on each attempt, so it always sees the plant it changes).
 * A change that changes nothing writes nothing: no new version, no event.
 * Otherwise the version goes up by one and updated_at is set; the database
 * writes the plant.updated event in the same transaction (the outbox trigger).
 */
export async function updatePlant(id: bigint, by: Attribution, change: (stored: Plant) => Plant | Promise<Plant>, check?: VersionCheck): Promise<VersionedPlant> {
  return writeAsRead(id, check, async ({ stored: current, createdAtCell }) => {
    const next = await change(current.plant);
    if (next.id !== id) throw new TypeError(`a change cannot give plant ${id} another id`);
    const tag = next.tag ?? null;
    if (next.name === current.plant.name && tag === (current.plant.tag ?? null)) return current;
    const changes = changedFields(current.plant, { id, name: next.name, tag });
    const at = new Date();
    const changed = await writeRecorded(
      Prisma.sql`UPDATE "plants" SET "name" = ${next.name}, "tag" = ${tag}, "version" = "version" + 1, "updated_at" = ${at}
        WHERE "id" = ${id} AND "version" = ${current.version} AND "created_at" = ${createdAtCell}`,
      { action: "plant.updated", subjectKind: "plant", subjectId: String(id), changes, by },
      at,
    );
    if (changed === 0) return LOST_RACE;
    wakeWebhookWorker();
    announcePlantChanges();
    return { plant: toPlant({ id, name: next.name, tag }), version: current.version + 1, createdAt: current.createdAt };
  });
}

/**
 * Deletes a plant; with a check, only at a version it passes (a compare-and-swap, as updatePlant).
 * Its record keeps the plant whole, as it was, so that it can be restored.
 */
export async function deletePlant(id: bigint, by: Attribution, check?: VersionCheck): Promise<void> {
  const record = (plant: Plant): ActivityRecord => ({ action: "plant.deleted", subjectKind: "plant", subjectId: String(id), changes: { before: plant }, by });
  if (check === undefined && env().database.provider === "sqlite") {
    // One synchronous write: the row the delete returns is the plant as it was.
    const deleted = await writeNow((write) => {
      const [row] = write.all<DirectRow>(Prisma.sql`DELETE FROM "plants" WHERE "id" = ${id} RETURNING "id", "name", "tag"`);
      if (row) recordActivityNow(write, [record(plantFromRow(row))], new Date());
      return row;
    }, observeWriteLock);
    if (!deleted) throw new PlantNotFoundError(id);
  } else {
    // On PostgreSQL even an unconditional delete is read and then deleted as read: the record is built
    // from what was read, and the delete and its record are one statement (writeRecorded).
    await writeAsRead(id, check, async ({ stored, createdAtCell }) => {
      const deleted = await writeRecorded(
        Prisma.sql`DELETE FROM "plants" WHERE "id" = ${id} AND "version" = ${stored.version} AND "created_at" = ${createdAtCell}`,
        record(stored.plant),
        new Date(),
      );
      return deleted === 0 ? LOST_RACE : undefined;
    });
  }
  // The delete may have written a plant.deleted event.
  wakeWebhookWorker();
  announcePlantChanges();
}

/**
 * Makes one plant's UPDATE or DELETE (`write`, matching at most one row) and,
 * if it matched, records it at `at`; answers the rows written. On PostgreSQL
 * the two are one statement (recordWrittenSql): atomic, without an
 * interactive transaction's four round trips. On SQLite they are one
 * synchronous write (writeNow), the record made only if the write matched:
 * one commit, one fsync, the lock held only to write and sync.
 */
async function writeRecorded(write: Prisma.Sql, record: ActivityRecord, at: Date): Promise<number> {
  if (env().database.provider === "postgresql") {
    const [row] = await writeOnPostgres<{ written: number }>(Prisma.sql`
      WITH "written" AS (${write} RETURNING "id"), "recorded" AS (
        ${recordWrittenSql([record], Prisma.sql`"written"`, Prisma.sql`${at}::timestamp(3)`)}
      )
      SELECT count(*)::int AS "written" FROM "written"`);
    return row!.written;
  }
  return writeNow((step) => {
    const written = step.run(write);
    if (written > 0) recordActivityNow(step, [record], at);
    return written;
  }, observeWriteLock);
}

/** The fields a change changed, before and after: only those (a tag removed is null after). */
function changedFields(before: Plant, after: { id: bigint; name: string; tag: string | null }): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const changes = { before: {} as Record<string, unknown>, after: {} as Record<string, unknown> };
  if (before.name !== after.name) {
    changes.before.name = before.name;
    changes.after.name = after.name;
  }
  if ((before.tag ?? null) !== after.tag) {
    changes.before.tag = before.tag ?? null;
    changes.after.tag = after.tag;
  }
  return changes;
}

/**
 * Stores `plant` as a new plant (version 1, created at `createdAt`) in the
 * caller's transaction when its id is free, and says whether it did; a taken
 * id writes nothing. The outbox trigger writes its plant.created event. For a
 * restore (lib/activity/restore-plant.ts), which records itself beside it.
 */
export async function insertPlantIfFree(client: Prisma.TransactionClient, plant: Plant, createdAt: Date): Promise<boolean> {
  const inserted = await client.$queryRaw<{ id: bigint }[]>`
    INSERT INTO "plants" ("id", "name", "tag", "created_at") VALUES (${plant.id}, ${plant.name}, ${plant.tag ?? null}, ${createdAt})
    ON CONFLICT ("id") DO NOTHING RETURNING "id"`;
  return inserted.length > 0;
}
