import { db, Prisma } from "@/lib/db/client";
import { groupCommit } from "@/lib/plants/group-commit";
import { PlantConflictError, PlantNotFoundError } from "@/lib/plants/plant-errors";
import { metrics } from "@/lib/server/metrics";
import type { ListPlantsQuery, NewPlant, Plant } from "@/lib/validations/plant";

// Data access for plants; returns plain objects, never Prisma rows, and
// throws the domain errors of lib/plants/plant-errors.ts.

export type { Plant };

const PLANT_FIELDS = { id: true, name: true, tag: true } as const;

function toPlant(row: { id: bigint; name: string; tag?: string | null }): Plant {
  return row.tag == null ? { id: row.id, name: row.name } : { id: row.id, name: row.name, tag: row.tag };
}

// Four bound values a row; far below SQLite's limit of 32766 per statement.
const MAX_ROWS_PER_INSERT = 500;

/**
 * Stores a plant. Creating is idempotent: repeating an identical request
 * returns the stored plant and writes nothing; the same id with other data is
 * a PlantConflictError. The primary key, not a prior read, decides races.
 *
 * A durable commit costs an fsync (about 1 ms on this machine), which
 * better-sqlite3 makes on the event loop, so plants that arrive together are
 * written together (lib/plants/group-commit.ts).
 */
export const createPlant: (plant: NewPlant) => Promise<Plant> = groupCommit((plants) => {
  metrics().groupCommitBatch.observe(plants.length);
  return storeNewPlants(plants);
}, MAX_ROWS_PER_INSERT);

/**
 * Stores each plant whose id is free, in one statement; one outcome per plant,
 * in order. A plant whose id is taken is the stored plant if it is the same
 * plant, and a conflict otherwise; of two plants with one id in the batch,
 * the first is inserted and the second meets it as stored.
 */
export async function storeNewPlants(plants: readonly NewPlant[]): Promise<PromiseSettledResult<Plant>[]> {
  const outcomes = new Array<PromiseSettledResult<Plant>>(plants.length);
  let undecided = plants.map((_, index) => index);
  while (undecided.length > 0) {
    const inserted = await insertNew(undecided.map((index) => plants[index]!));
    const taken = undecided.filter((index) => {
      // delete(): a second plant with the same id in this batch finds it gone and is checked against the stored one.
      if (!inserted.delete(plants[index]!.id)) return true;
      outcomes[index] = { status: "fulfilled", value: toPlant(plants[index]!) };
      return false;
    });
    const stored = await findStored(taken.map((index) => plants[index]!.id));
    // A plant deleted since the insert found its id taken is tried again as a new plant.
    undecided = taken.filter((index) => {
      const plant = plants[index]!;
      const row = stored.get(plant.id);
      if (!row) return true;
      const same = row.name === plant.name && row.tag === (plant.tag ?? null);
      outcomes[index] = same ? { status: "fulfilled", value: toPlant(row) } : { status: "rejected", reason: new PlantConflictError(plant.id) };
      return false;
    });
  }
  return outcomes;
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

async function findStored(ids: bigint[]): Promise<Map<bigint, { id: bigint; name: string; tag: string | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await db().plant.findMany({ where: { id: { in: ids } }, select: PLANT_FIELDS });
  return new Map(rows.map((row) => [row.id, row]));
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

/**
 * Plants in id order, `limit` at a time, after the `after` cursor. One more
 * row than asked says whether another page exists. Raw SQL: the API's hot read
 * skips Prisma's query compiler (a model query costs about twice as much here).
 */
export async function listPlants({ limit, after }: ListPlantsQuery): Promise<PlantPage> {
  const from = after === undefined ? Prisma.empty : Prisma.sql`WHERE id > ${after}`;
  const rows = await db().$queryRaw<{ id: bigint; name: string; tag: string | null }[]>`
    SELECT id, name, tag FROM plants ${from} ORDER BY id LIMIT ${limit + 1}`;
  const plants = rows.slice(0, limit).map(toPlant);
  const last = plants.at(-1);
  return rows.length > limit && last ? { plants, nextAfter: last.id } : { plants };
}

export async function getPlant(id: bigint): Promise<Plant> {
  const row = await db().plant.findUnique({ where: { id }, select: PLANT_FIELDS });
  if (!row) throw new PlantNotFoundError(id);
  return toPlant(row);
}

export async function deletePlant(id: bigint): Promise<void> {
  const { count } = await db().plant.deleteMany({ where: { id } });
  if (count === 0) throw new PlantNotFoundError(id);
}
