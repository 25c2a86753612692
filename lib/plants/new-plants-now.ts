import { type ReadyRecord, recordReadyNow } from "@/lib/activity/record-now";
import { bigintCell, dateCell, type DirectRow, optionalStringCell, stringCell } from "@/lib/db/direct-reads";
import type { WriteStep } from "@/lib/db/sqlite";
import type { NewPlant } from "@/lib/validations/plant";

// SQLite's store of new plants as statements of one synchronous write
// (issue 33), free of Prisma's client: run by the process that was asked
// (lib/plants/plant-queries.ts) or, with several workers, by the cluster
// primary for all of them (lib/plants/plant-writer.ts).

/** A new plant, and its plant.created record made ready by whoever asked. */
export type NewPlantInput = { plant: NewPlant; record: ReadyRecord };

/** What a plant's id held when it was found taken. */
export type TakenRow = { name: string; tag: string | null; version: number; createdAt: Date };

/** Stored now, or its id found taken (by the same plant, or another: the caller decides). */
export type StoreResult = { stored: true } | { stored: false; row: TakenRow };

const INSERT_PLANT = `INSERT INTO "plants" ("id", "name", "tag", "created_at") VALUES (?, ?, ?, ?) ON CONFLICT ("id") DO NOTHING`;
const STORED_PLANT = `SELECT "name", "tag", "version", "created_at" FROM "plants" WHERE "id" = ?`;

/**
 * Stores each plant whose id is free, at `createdAt`, and records those
 * stored, in their order; of two plants with one id, the first is stored and
 * the second finds it. The write lock is held throughout, so an id found
 * taken is still taken when it is read. One result per input, in order.
 */
export function storeNewPlantsNow(write: WriteStep, inputs: readonly NewPlantInput[], createdAt: Date): StoreResult[] {
  const recorded: ReadyRecord[] = [];
  const results = inputs.map(({ plant, record }): StoreResult => {
    if (write.run({ sql: INSERT_PLANT, values: [plant.id, plant.name, plant.tag ?? null, createdAt] }) === 0) {
      const [row] = write.all<DirectRow>({ sql: STORED_PLANT, values: [plant.id] });
      if (!row) throw new Error(`plant ${plant.id}: its id was taken, yet no plant has it`);
      return { stored: false, row: { name: stringCell(row.name), tag: optionalStringCell(row.tag), version: Number(bigintCell(row.version)), createdAt: dateCell(row.created_at) } };
    }
    recorded.push(record);
    return { stored: true };
  });
  recordReadyNow(write, recorded, createdAt);
  return results;
}
