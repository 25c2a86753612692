import type { StoredPlant, TestDatabase } from "@/test/support/test-database";

// Plants written straight into a test database, hundreds per statement: a
// test's thousands or a bench's 100,000 in seconds rather than one POST each.
// Nothing else changes: created_at takes its default, and the outbox writes
// events only for enabled webhook endpoints, which such a database has none of.

const ROWS_PER_STATEMENT = 300;

export async function insertPlants(database: TestDatabase, plants: readonly StoredPlant[]): Promise<void> {
  for (let start = 0; start < plants.length; start += ROWS_PER_STATEMENT) {
    const batch = plants.slice(start, start + ROWS_PER_STATEMENT);
    const rows = batch.map((_, index) => `($${index * 3 + 1}, $${index * 3 + 2}, $${index * 3 + 3})`);
    await database.query(
      `INSERT INTO plants (id, name, tag) VALUES ${rows.join(", ")}`,
      batch.flatMap((plant) => [plant.id, plant.name, plant.tag]),
    );
  }
}
