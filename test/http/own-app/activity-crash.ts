import { beforeAll, describe, expect, it } from "vitest";
import { parseExactJson } from "@/lib/json/exact-json";
import { type AppServer, createToken } from "@/test/support/app-server";

// The activity record survives a kill -9 (issue 22: "a kill -9 right after
// commits leaves every acknowledged change with its record"). An app of its
// own takes a stream of creates, changes and deletes from several clients at
// once; it is killed with SIGKILL while they are under way, and restarted on
// the same database. Then every change answered 2xx has its record (read back
// through GET /plants/{id}/history), and the records, replayed in order, make
// exactly the plants stored: no record without its change, no change without
// its record, whether or not its answer got out. What the kill cut short is
// whatever was under way: the assertions are on what was acknowledged, never
// on how much. It reads every plant and plant record of its app's database:
// the first test on its app to write plants.

let app: AppServer;
let token: string;

const CLIENTS = 12;
// Answers received before the kill: enough that creates, changes and deletes have all been acknowledged.
const ACKNOWLEDGED_BEFORE_KILL = 120;
const TWO_TO_53 = 2n ** 53n;

type Change = { method: "POST" | "PATCH" | "DELETE"; id: bigint; name?: string };
type Sent = Change & { startedBeforeKill: boolean; status?: number; requestId?: string | null; replayed?: boolean; failed?: string };

const ACTION = { POST: "plant.created", PATCH: "plant.updated", DELETE: "plant.deleted" } as const;

/** One client's changes, in order: its plants, each created, renamed twice, and every other one deleted; half past 2^53. */
function* changesOf(client: number): Generator<Change> {
  for (let plant = 0; ; plant++) {
    const serial = BigInt(client * 100_000 + plant + 1);
    const id = plant % 2 === 0 ? TWO_TO_53 + serial : serial;
    yield { method: "POST", id, name: `plant ${id} v0` };
    yield { method: "PATCH", id, name: `plant ${id} v1` };
    yield { method: "PATCH", id, name: `plant ${id} v2` };
    if (plant % 4 < 2) yield { method: "DELETE", id };
  }
}

async function send(change: Change): Promise<Pick<Sent, "status" | "requestId" | "replayed">> {
  const body = change.method === "DELETE" ? undefined : change.method === "POST" ? `{"id":${change.id},"name":"${change.name}"}` : `{"name":"${change.name}"}`;
  const contentType = change.method === "PATCH" ? "application/merge-patch+json" : "application/json";
  const response = await fetch(`${app.url}/plants${change.method === "POST" ? "" : `/${change.id}`}`, {
    method: change.method,
    headers: { authorization: `Bearer ${token}`, ...(body && { "content-type": contentType }) },
    body,
  });
  // Acknowledged only once the whole answer is in.
  await response.arrayBuffer();
  return { status: response.status, requestId: response.headers.get("x-request-id"), replayed: response.headers.get("idempotent-replayed") === "true" };
}

type HistoryRecord = { action: string; requestId: string | null };

async function historyOf(id: bigint): Promise<HistoryRecord[]> {
  const response = await fetch(`${app.url}/plants/${id}/history?limit=100`, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  // 404: no plant and no record by that id (a create the kill cut short, say).
  if (response.status === 404) return [];
  expect(response.status, text).toBe(200);
  return parseExactJson(text) as HistoryRecord[];
}

type Plant = { name: string; tag: string | null };
type RecordRow = { id: bigint; action: string; subject_id: string; changes: string };

/**
 * The plants the records make, replayed oldest first; fails where a record
 * does not follow from those before it (a create of a plant that exists, a
 * change or delete of one that does not, a "before" that is not what was there).
 */
function replay(records: RecordRow[]): Map<string, Plant> {
  const plants = new Map<string, Plant>();
  for (const record of records) {
    const { before, after } = parseExactJson(record.changes) as { before?: Record<string, unknown>; after?: Record<string, unknown> };
    const stored = plants.get(record.subject_id);
    const where = `record ${record.id} (${record.action} of ${record.subject_id})`;
    if (record.action === "plant.created") {
      expect(stored, where).toBeUndefined();
      plants.set(record.subject_id, { name: after!.name as string, tag: (after!.tag as string | undefined) ?? null });
      continue;
    }
    expect(stored, where).toBeDefined();
    if (record.action === "plant.updated") {
      for (const [field, value] of Object.entries(before ?? {})) expect(stored![field as keyof Plant], where).toEqual(value);
      plants.set(record.subject_id, { ...stored!, ...(after as Partial<Plant>) });
    } else {
      expect(record.action, where).toBe("plant.deleted");
      expect({ name: before!.name, tag: before!.tag ?? null }, where).toEqual(stored);
      plants.delete(record.subject_id);
    }
  }
  return plants;
}

export function describeActivityCrash(ownApp: () => AppServer): void {
  describe("the activity record through a kill -9", () => {
    beforeAll(async () => {
      app = ownApp();
      token = await createToken(app.database, ["plants:write", "plants:read"], "1h", "activity-crash");
    });

    it("after a kill -9 under concurrent writes, every acknowledged change has its record and every record its change", async () => {
      const sent: Sent[] = [];
      let acknowledged = 0;
      let killed: Promise<unknown> | undefined;
      let killWithNextChange = false;

      async function client(number: number): Promise<void> {
        for (const change of changesOf(number)) {
          const request: Sent = { ...change, startedBeforeKill: killed === undefined };
          sent.push(request);
          const answer = send(change);
          // The kill comes in the very tick a change is sent, so at least that one is under way, never answered,
          // however quickly the app answered the others: the machine's load cannot leave nothing in flight.
          if (killWithNextChange && killed === undefined) killed = app.kill("SIGKILL");
          try {
            Object.assign(request, await answer);
          } catch (error) {
            // Cut by the kill, or refused after it: this client is done.
            request.failed = String((error as { cause?: unknown }).cause ?? error);
            return;
          }
          // Every change before the kill is one the app accepts: a refusal would be a fault of its own.
          expect(request.status, `${change.method} ${change.id}`).toBeLessThan(300);
          if (++acknowledged === ACKNOWLEDGED_BEFORE_KILL) killWithNextChange = true;
        }
      }

      await Promise.all(Array.from({ length: CLIENTS }, (_, number) => client(number)));
      expect(await killed).toEqual({ code: null, signal: "SIGKILL" });
      const answered = sent.filter((request) => request.status !== undefined);
      // The kill came with changes under way: sent before it, never answered.
      expect(sent.filter((request) => request.startedBeforeKill && request.failed !== undefined).length).toBeGreaterThan(0);
      expect(new Set(answered.map((request) => request.method))).toEqual(new Set(["POST", "PATCH", "DELETE"]));
      expect(answered.some((request) => request.id > TWO_TO_53)).toBe(true);

      await app.restart();

      // Every acknowledged change has its record, under the request id its answer carried.
      const touched = [...new Set(sent.map((request) => request.id))];
      const histories = new Map<bigint, HistoryRecord[]>();
      for (const id of touched) histories.set(id, await historyOf(id));
      for (const request of answered) {
        // A create answered as already stored changed nothing, and has no record: none is sent twice here.
        expect(request.replayed, `${request.method} ${request.id}`).toBe(false);
        const records = histories.get(request.id)!.filter((record) => record.requestId === request.requestId);
        expect(records.map((record) => record.action), `${request.method} ${request.id}, request ${request.requestId}`).toEqual([ACTION[request.method]]);
      }

      // No record without its change: replayed in order, the records make exactly the plants stored.
      const records = await app.database.query<RecordRow>("SELECT id, action, subject_id, changes FROM activity WHERE subject_kind = 'plant' ORDER BY id");
      const replayed = replay(records);
      const stored = await app.database.query<{ id: bigint; name: string; tag: string | null }>("SELECT id, name, tag FROM plants ORDER BY id");
      expect(new Map(stored.map((plant) => [String(plant.id), { name: plant.name, tag: plant.tag }]))).toEqual(replayed);
      // Each record belongs to a request that was sent; those answered account for one record each.
      expect(records.every((record) => touched.includes(BigInt(record.subject_id)))).toBe(true);
      expect(records.length).toBeGreaterThanOrEqual(answered.length);
      expect(records.length).toBeLessThanOrEqual(sent.length);
    });
  });
}
