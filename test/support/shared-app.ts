import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect, inject } from "vitest";
import { type AppServer, createToken } from "./app-server";
import { testDatabaseAt, type TestDatabasePlace } from "./test-database";
import { HANG_GUARD_MS } from "./hang-guard";

// The app the HTTP test files share, one per engine (issue 20): started once by
// test/support/shared-app-global-setup.ts, not once per file, on a database of
// the project's engine. A file on it is isolated by its own data and tokens,
// not by its own process: its own fresh tokens (sharedAppWithTokens), its own
// ids (a range no other file writes, named in the file's header), and lists
// and counts restricted to those ids or to tags only it uses. A file that
// needs to stop, kill or restart its app, read its output, or start it with
// settings of its own keeps an app of its own (startApp in app-server.ts).

/** Where the shared app is, as its global setup hands it to the test workers (JSON: no functions). */
export type SharedAppPlace = { url: string; port: number; database: TestDatabasePlace };

declare module "vitest" {
  export interface ProvidedContext {
    sharedApp: SharedAppPlace;
  }
}

/** The shared app as a test file sees it: where to send requests, and its database. Nothing that would stop it for the other files. */
export type SharedApp = Pick<AppServer, "url" | "database">;

export type SharedAppWithTokens = { app: SharedApp; writeToken: string; readToken: string };

export function sharedApp(): SharedApp {
  const place = inject("sharedApp");
  if (place === undefined) throw new Error("no shared app: only the http and http-postgres projects start one (vitest.config.mts)");
  return {
    url: place.url,
    database: testDatabaseAt(place.database, async () => {
      throw new Error("the shared app's database outlives this file: only its global setup drops it, at the end of the run");
    }),
  };
}

/** The shared app, and a plants:write and a plants:read token this file alone uses. */
export async function sharedAppWithTokens(): Promise<SharedAppWithTokens> {
  const app = sharedApp();
  const [writeToken, readToken] = await Promise.all([createToken(app.database, ["plants:write"]), createToken(app.database, ["plants:read"])]);
  return { app, writeToken, readToken };
}

// Ids several files must each store as a plant of their own: -2^63 and
// 2^63-1, 2^53 and its neighbours, 0, -1 and the like, which a file tests
// because they are those numbers, not for want of another id. A file takes
// them with holdIds (or withIds): one file at a time holds an id, and the
// holder starts from none of its ids stored. Every other id a file writes is
// in a range of its own. The holds are directories in the shared data
// directory (mkdir either makes one or fails, atomically, across processes),
// gone with it at the end of the run.

const WAIT_FOR_IDS_MS = HANG_GUARD_MS;
const heldHere = new Set<bigint>();

/**
 * Takes ids for this file, waiting while another file holds any of them, and
 * deletes any plant with them; the answer gives them back. All or none are
 * taken at a time, so two files waiting for each other cannot both hold some.
 */
export async function holdIds(app: SharedApp, ids: readonly bigint[]): Promise<() => Promise<void>> {
  const wanted = [...new Set(ids)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const again = wanted.filter((id) => heldHere.has(id));
  if (again.length > 0) throw new Error(`this file holds ${again.join(", ")} already: a second hold would wait for itself`);
  const folder = path.join(app.database.dataDir, "held-ids");
  await mkdir(folder, { recursive: true });
  const holder = expect.getState().testPath ?? `process ${process.pid}`;
  const deadline = Date.now() + WAIT_FOR_IDS_MS;
  for (;;) {
    const taken: bigint[] = [];
    for (const id of wanted) {
      if (!(await makeFolder(path.join(folder, String(id))))) break;
      taken.push(id);
      await writeFile(path.join(folder, String(id), "holder"), holder);
    }
    if (taken.length === wanted.length) break;
    await Promise.all(taken.map((id) => rm(path.join(folder, String(id)), { recursive: true, force: true })));
    if (Date.now() > deadline) {
      const busy = wanted[taken.length]!;
      const by = await readFile(path.join(folder, String(busy), "holder"), "utf8").catch(() => "another file");
      throw new Error(`id ${busy} is still held after ${WAIT_FOR_IDS_MS / 1000} s, by ${by}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  for (const id of wanted) heldHere.add(id);
  const release = async () => {
    for (const id of wanted) heldHere.delete(id);
    await Promise.all(wanted.map((id) => rm(path.join(folder, String(id)), { recursive: true, force: true })));
  };
  try {
    if (wanted.length > 0) await app.database.query(`DELETE FROM plants WHERE id IN (${wanted.map((_, n) => `$${n + 1}`).join(", ")})`, wanted);
  } catch (error) {
    await release();
    throw error;
  }
  return release;
}

/** Makes a folder: true, or false when it was there already. */
async function makeFolder(folder: string): Promise<boolean> {
  try {
    await mkdir(folder);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/** Runs action while this file holds ids (holdIds), and gives them back whatever it does. */
export async function withIds<T>(app: SharedApp, ids: readonly bigint[], action: () => Promise<T>): Promise<T> {
  const release = await holdIds(app, ids);
  try {
    return await action();
  } finally {
    await release();
  }
}
