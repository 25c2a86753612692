import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { beforeAll, expect, it } from "vitest";
import { type SharedAppWithTokens, sharedAppWithTokens } from "@/test/support/shared-app";

// SQLite: the server copies the WAL back into the database file from a worker
// thread of its own (lib/db/sqlite-checkpoints.ts), not inside commits on the
// event loop, whose own threshold is raised far out of reach. So shortly
// after plants are written, the database file alone, without its WAL, holds
// them all; with checkpoints left to the commits it would hold none of them.
// On the app the HTTP files share: this file's plants have ids from 500000 to
// 599999, and only those are counted in the file.

const OWN = { from: 500_000n, to: 599_999n };

let setup: SharedAppWithTokens;

beforeAll(async () => {
  setup = await sharedAppWithTokens();
});

it("checkpoints written plants into the database file within moments, off the request path", async () => {
  const { app, writeToken } = setup;
  const { config } = app.database;
  if (config.provider !== "sqlite") throw new Error("a SQLite test");
  const headers = { authorization: `Bearer ${writeToken}`, "content-type": "application/json" };
  const ids = Array.from({ length: 300 }, (_, index) => OWN.from + BigInt(index + 1));
  const statuses = await Promise.all(
    ids.map(async (id) => (await fetch(`${app.url}/plants`, { method: "POST", headers, body: `{"id":${id},"name":"Checkpointed ${id}"}` })).status),
  );
  expect(statuses.every((status) => status === 200)).toBe(true);

  const copyDir = mkdtempSync(path.join(tmpdir(), "plant-store-checkpoint-"));
  try {
    // Only the database file: what is still in the WAL is left behind. Without a request to wait on, the
    // checkpoint comes in the app's own time: looked for until the hang guard, however busy the machine.
    // The other files go on writing meanwhile: a copy may catch the file mid-checkpoint, which reads as
    // malformed, so such a copy counts as none yet.
    const copy = path.join(copyDir, "copy.db");
    const countInFile = () => {
      copyFileSync(config.path, copy);
      const connection = new Database(copy, { readonly: true });
      try {
        return (connection.prepare("SELECT count(*) AS count FROM plants WHERE id BETWEEN ? AND ?").get(OWN.from, OWN.to) as { count: number }).count;
      } catch {
        return 0;
      } finally {
        connection.close();
      }
    };
    await expect.poll(countInFile, { interval: 200 }).toBe(ids.length);
  } finally {
    rmSync(copyDir, { recursive: true, force: true });
  }
});
