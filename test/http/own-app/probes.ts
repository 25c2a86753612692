import { describe, expect, it } from "vitest";
import type { AppServer } from "@/test/support/app-server";

// The load balancer's probes: public, tiny JSON, no secrets. The database
// is left as it was found: a pending migration and a missing table are put back.

export function describeProbes(ownApp: () => AppServer): void {
  const probe = async (path: string): Promise<{ status: number; body: unknown }> => {
    const response = await fetch(`${ownApp().url}${path}`);
    return { status: response.status, body: await response.json() };
  };

  describe("GET /healthz", () => {
    it("answers 200 while the process runs, with no authentication", async () => {
      expect(await probe("/healthz")).toEqual({ status: 200, body: { status: "ok" } });
    });
  });

  describe("GET /readyz", () => {
    it("answers 200 when the database answers and no migration is pending", async () => {
      expect(await probe("/readyz")).toEqual({ status: 200, body: { status: "ready" } });
    });

    it("answers 503 in the Error shape while a migration is pending, and 200 again once it is applied", async () => {
      const [latest] = await ownApp().database.query<{ id: string }>('SELECT id FROM "_prisma_migrations" ORDER BY migration_name DESC LIMIT 1');
      await ownApp().database.query('UPDATE "_prisma_migrations" SET rolled_back_at = finished_at WHERE id = $1', [latest!.id]);
      expect(await probe("/readyz")).toEqual({ status: 503, body: { error: 503, message: "not ready: migrations are pending" } });
      await ownApp().database.query('UPDATE "_prisma_migrations" SET rolled_back_at = NULL WHERE id = $1', [latest!.id]);
      expect((await probe("/readyz")).status).toBe(200);
    });

    it("answers 503 when the database does not answer, naming no cause", async () => {
      await ownApp().database.query('ALTER TABLE "_prisma_migrations" RENAME TO "_prisma_migrations_away"');
      try {
        expect(await probe("/readyz")).toEqual({ status: 503, body: { error: 503, message: "not ready: the database does not answer" } });
      } finally {
        await ownApp().database.query('ALTER TABLE "_prisma_migrations_away" RENAME TO "_prisma_migrations"');
      }
    });
  });
}
