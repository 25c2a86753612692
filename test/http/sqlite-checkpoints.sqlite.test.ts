import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type AppWithTokens, startAppWithTokens } from "@/test/support/app-server";

// SQLite: the server copies the WAL back into the database file from a worker
// thread of its own (lib/db/sqlite-checkpoints.ts), not inside commits on the
// event loop, whose own threshold is raised far out of reach. So shortly
// after plants are written, the database file alone, without its WAL, holds
// them all; with checkpoints left to the commits it would hold none of them.

let setup: AppWithTokens;

beforeAll(async () => {
  setup = await startAppWithTokens();
});

afterAll(async () => {
  await setup?.app.stop();
});

it("checkpoints written plants into the database file within moments, off the request path", async () => {
  const { app, writeToken } = setup;
  const { config } = app.database;
  if (config.provider !== "sqlite") throw new Error("a SQLite test");
  const headers = { authorization: `Bearer ${writeToken}`, "content-type": "application/json" };
  const ids = Array.from({ length: 300 }, (_, index) => index + 1);
  const statuses = await Promise.all(
    ids.map(async (id) => (await fetch(`${app.url}/plants`, { method: "POST", headers, body: `{"id":${id},"name":"Checkpointed ${id}"}` })).status),
  );
  expect(statuses.every((status) => status === 200)).toBe(true);

  const copyDir = mkdtempSync(path.join(tmpdir(), "plant-store-checkpoint-"));
  try {
    // Only the database file: what is still in the WAL is left behind. Without a request to wait on, the
    // checkpoint comes in the app's own time: looked for until the hang guard, however busy the machine.
    const copy = path.join(copyDir, "copy.db");
    const countInFile = () => {
      copyFileSync(config.path, copy);
      const connection = new Database(copy, { readonly: true });
      try {
        return (connection.prepare("SELECT count(*) AS count FROM plants").get() as { count: number }).count;
      } finally {
        connection.close();
      }
    };
    await expect.poll(countInFile, { interval: 200 }).toBe(ids.length);
  } finally {
    rmSync(copyDir, { recursive: true, force: true });
  }
});
