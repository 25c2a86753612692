import { ApiError } from "@/lib/api-error";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { ListPlantsQuery, NewPlant, Plant } from "@/lib/validations/plant";

// Data access for plants; returns plain objects, never Prisma rows.

export type { Plant };

function toPlant(row: { id: bigint; name: string; tag: string | null }): Plant {
  return row.tag === null ? { id: row.id, name: row.name } : { id: row.id, name: row.name, tag: row.tag };
}

/**
 * Stores a plant. Creating is idempotent: repeating an identical request
 * returns the stored plant and writes nothing; the same id with other data is
 * a 409. Inserting first and looking only on a conflict keeps the common case
 * to one statement, and the primary key, not a prior read, decides races.
 */
export async function createPlant(input: NewPlant): Promise<Plant> {
  const data = { id: input.id, name: input.name, tag: input.tag ?? null };
  try {
    return toPlant(await db().plant.create({ data, select: { id: true, name: true, tag: true } }));
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const stored = await db().plant.findUnique({ where: { id: input.id }, select: { id: true, name: true, tag: true } });
  if (stored && stored.name === data.name && stored.tag === data.tag) return toPlant(stored);
  throw new ApiError(409, `a plant with id ${input.id} already exists with different data`);
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
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

const PLANT_FIELDS = { id: true, name: true, tag: true } as const;

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
