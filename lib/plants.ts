import { ApiError } from "@/lib/api-error";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { ListPlantsQuery, NewPlant, Plant } from "@/lib/validations/plant";

// Data access for plants; returns plain objects, never Prisma rows.

export type { Plant };

const PLANT_FIELDS = { id: true, name: true, tag: true } as const;

function toPlant(row: { id: bigint; name: string; tag: string | null }): Plant {
  return row.tag === null ? { id: row.id, name: row.name } : { id: row.id, name: row.name, tag: row.tag };
}

/**
 * Stores a plant. Creating is idempotent: repeating an identical request
 * returns the stored plant and writes nothing; the same id with other data is
 * a 409. The primary key, not a prior read, decides races.
 *
 * A durable commit costs an fsync (about 1 ms on this machine), which
 * better-sqlite3 makes on the event loop. Plants that arrive together are
 * therefore written by one INSERT, one commit and one fsync (group commit):
 * each caller still hears back only after its row is on disk.
 */
export function createPlant(input: NewPlant): Promise<Plant> {
  return new Promise((resolve, reject) => {
    pendingWrites.push({ input, resolve, reject });
    if (pendingWrites.length === 1) setImmediate(writePending);
  });
}

type PendingWrite = { input: NewPlant; resolve: (plant: Plant) => void; reject: (error: unknown) => void };

const pendingWrites: PendingWrite[] = [];

// Four bound values a row; far below SQLite's limit of 32766 per statement.
const MAX_ROWS_PER_INSERT = 500;

async function writePending(): Promise<void> {
  const batch = pendingWrites.splice(0, MAX_ROWS_PER_INSERT);
  if (pendingWrites.length > 0) setImmediate(writePending);
  try {
    const inserted = await insertNew(batch.map((write) => write.input));
    const conflicts: PendingWrite[] = [];
    for (const write of batch) {
      // delete(): a second write of the same id in this batch finds it gone and is a conflict.
      if (inserted.delete(write.input.id)) write.resolve(toPlant({ ...write.input, tag: write.input.tag ?? null }));
      else conflicts.push(write);
    }
    await settleConflicts(conflicts);
  } catch (error) {
    for (const write of batch) write.reject(error);
  }
}

/** Inserts every plant whose id is free; returns the ids inserted. Of two rows with one id, SQLite keeps the first. */
async function insertNew(plants: NewPlant[]): Promise<Set<bigint>> {
  const createdAt = new Date();
  const rows = plants.map((plant) => Prisma.sql`(${plant.id}, ${plant.name}, ${plant.tag ?? null}, ${createdAt})`);
  const inserted = await db().$queryRaw<{ id: bigint }[]>`
    INSERT INTO plants (id, name, tag, created_at) VALUES ${Prisma.join(rows)}
    ON CONFLICT (id) DO NOTHING RETURNING id`;
  return new Set(inserted.map((row) => row.id));
}

/** A write whose id was taken succeeds if the stored plant is the same plant, and is a 409 otherwise. */
async function settleConflicts(writes: PendingWrite[]): Promise<void> {
  if (writes.length === 0) return;
  const stored = await db().plant.findMany({ where: { id: { in: writes.map((write) => write.input.id) } }, select: PLANT_FIELDS });
  const byId = new Map(stored.map((row) => [row.id, row]));
  for (const { input, resolve, reject } of writes) {
    const row = byId.get(input.id);
    if (row && row.name === input.name && row.tag === (input.tag ?? null)) resolve(toPlant(row));
    else if (row) reject(new ApiError(409, `a plant with id ${input.id} already exists with different data`));
    // Deleted since the insert found it taken: try again as a new plant.
    else createPlant(input).then(resolve, reject);
  }
}

// The staff list: newest first. Pages are numbered rather than cursor-based
// so a page is a plain link; created_at has its own index, and the id breaks
// ties between plants made in the same millisecond so no row shows twice.

export type ListedPlant = Plant & { createdAt: Date };
export type NewestPlantsPage = { plants: ListedPlant[]; page: number; hasNext: boolean };

export const PLANTS_PAGE_SIZE = 20;

export async function listNewestPlants(page: number, pageSize = PLANTS_PAGE_SIZE): Promise<NewestPlantsPage> {
  const rows = await db().plant.findMany({
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: (page - 1) * pageSize,
    take: pageSize + 1,
    select: { id: true, name: true, tag: true, createdAt: true },
  });
  const plants = rows.slice(0, pageSize).map((row) => ({ ...toPlant(row), createdAt: row.createdAt }));
  return { plants, page, hasNext: rows.length > pageSize };
}

export type PlantPage = {
  plants: Plant[];
  /** The cursor for the next page (the last id answered), present while more plants remain. */
  nextAfter?: bigint;
};

/** Plants in id order, `limit` at a time, after the `after` cursor. One more row than asked says whether another page exists. */
export async function listPlants({ limit, after }: ListPlantsQuery): Promise<PlantPage> {
  const rows = await db().plant.findMany({
    where: after === undefined ? {} : { id: { gt: after } },
    orderBy: { id: "asc" },
    take: limit + 1,
    select: PLANT_FIELDS,
  });
  const plants = rows.slice(0, limit).map(toPlant);
  const last = plants.at(-1);
  return rows.length > limit && last ? { plants, nextAfter: last.id } : { plants };
}

export async function getPlant(id: bigint): Promise<Plant | null> {
  const row = await db().plant.findUnique({ where: { id }, select: PLANT_FIELDS });
  return row && toPlant(row);
}

/** Deletes a plant; false when there was none. */
export async function deletePlant(id: bigint): Promise<boolean> {
  const { count } = await db().plant.deleteMany({ where: { id } });
  return count > 0;
}
