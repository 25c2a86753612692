import { describe, expect, it } from "vitest";
import { sendWaitingPlants } from "@/lib/client/offline/send-waiting-plants";
import type { WaitingPlantStore } from "@/lib/client/offline/waiting-plants";
import type { WaitingPlant, WaitingPlantProblem } from "@/lib/validations/waiting-plant";

// The sending of waiting plants against a store in memory and a fake server
// that answers as POST /plants does.

function memoryStore(plants: WaitingPlant["plant"][]): WaitingPlantStore & { held: WaitingPlant[] } {
  const held: WaitingPlant[] = plants.map((plant, index) => ({ seq: index + 1, plant, keptAt: index }));
  return {
    held,
    async list() {
      return held.map((waiting) => ({ ...waiting }));
    },
    async remove(seq) {
      held.splice(held.findIndex((waiting) => waiting.seq === seq), 1);
    },
    async refuse(seq, problem: WaitingPlantProblem) {
      const waiting = held.find((each) => each.seq === seq);
      if (waiting) waiting.problem = problem;
    },
  };
}

type Stored = Map<string, string>;

/** POST /plants over a map of id to body: stored, already stored (Idempotent-Replayed), or 409; `fail` decides a request's fate first. */
function server(stored: Stored, fail: (body: string) => Response | "network" | undefined = () => undefined) {
  const bodies: string[] = [];
  const fetcher = (async (_url: string, init: RequestInit) => {
    const body = String(init.body);
    bodies.push(body);
    const failure = fail(body);
    if (failure === "network") throw new TypeError("Failed to fetch");
    if (failure) return failure;
    const id = /"id":(-?\d+)/.exec(body)![1]!;
    const known = stored.get(id);
    if (known === undefined) {
      stored.set(id, body);
      return new Response(body, { status: 200 });
    }
    if (known === body) return new Response(body, { status: 200, headers: { "idempotent-replayed": "true" } });
    return new Response(`{"error":409,"message":"a plant with id ${id} already exists with different data"}`, { status: 409 });
  }) as typeof fetch;
  return { fetcher, bodies };
}

describe("sendWaitingPlants", () => {
  it("sends each waiting plant once, oldest first, with its id exact, and forgets it once stored", async () => {
    const store = memoryStore([
      { id: "9007199254740993", name: "Fern" },
      { id: "2", name: "Ivy", tag: "climber" },
    ]);
    const stored: Stored = new Map();
    const { fetcher, bodies } = server(stored);
    const summary = await sendWaitingPlants(store, fetcher);
    expect(bodies).toEqual(['{"id":9007199254740993,"name":"Fern"}', '{"id":2,"name":"Ivy","tag":"climber"}']);
    expect(summary).toEqual({
      sent: [
        { seq: 1, plant: { id: 9007199254740993n, name: "Fern" }, replayed: false },
        { seq: 2, plant: { id: 2n, name: "Ivy", tag: "climber" }, replayed: false },
      ],
      refused: 0,
    });
    expect(store.held).toEqual([]);
    expect(await sendWaitingPlants(store, fetcher)).toEqual({ sent: [], refused: 0 });
    expect(bodies).toHaveLength(2);
  });

  it("counts a plant already stored (its answer lost on the way) as sent, storing it once", async () => {
    const stored: Stored = new Map([["7", '{"id":7,"name":"Moss"}']]);
    const store = memoryStore([{ id: "7", name: "Moss" }]);
    expect(await sendWaitingPlants(store, server(stored).fetcher)).toEqual({ sent: [{ seq: 1, plant: { id: 7n, name: "Moss" }, replayed: true }], refused: 0 });
    expect(store.held).toEqual([]);
    expect([...stored.keys()]).toEqual(["7"]);
  });

  it("keeps a plant the app refuses, with the reason, sends the rest, and does not send it again until it is changed", async () => {
    const stored: Stored = new Map([["4242", '{"id":4242,"name":"Ficus lyrata"}']]);
    const store = memoryStore([
      { id: "4242", name: "Ficus elastica" },
      { id: "4243", name: "Palm" },
    ]);
    const { fetcher, bodies } = server(stored);
    expect(await sendWaitingPlants(store, fetcher)).toMatchObject({ sent: [{ plant: { id: 4243n } }], refused: 1 });
    expect(store.held).toEqual([
      {
        seq: 1,
        plant: { id: "4242", name: "Ficus elastica" },
        keptAt: 0,
        problem: { status: 409, fieldErrors: [{ field: "id", message: "a plant with id 4242 already exists with different data; choose another id" }] },
      },
    ]);
    await sendWaitingPlants(store, fetcher);
    expect(bodies).toHaveLength(2);
  });

  it("refuses, without sending it, a kept plant that breaks the API's rules", async () => {
    const store = memoryStore([{ id: "9223372036854775808", name: " " }]);
    const { fetcher, bodies } = server(new Map());
    expect(await sendWaitingPlants(store, fetcher)).toEqual({ sent: [], refused: 1 });
    expect(bodies).toEqual([]);
    expect(store.held[0]!.problem).toEqual({
      status: 400,
      fieldErrors: [
        { field: "id", message: "id must be an integer from -9223372036854775808 to 9223372036854775807" },
        { field: "name", message: "name must not be only whitespace" },
      ],
    });
  });

  it.each([
    ["no answer", "network" as const, "unreachable"],
    ["a gateway whose app is down", new Response("", { status: 503 }), "unreachable"],
    ["an ended session", new Response('{"error":401,"message":"authentication required"}', { status: 401 }), "signed out"],
    ["a server fault", new Response('{"error":500,"message":"internal error"}', { status: 500 }), "server"],
    ["a rate limit", new Response('{"error":429,"message":"too many requests"}', { status: 429 }), "server"],
  ])("stops at %s, leaving that plant and the rest waiting, unmarked", async (_, failure, stopped) => {
    const store = memoryStore([
      { id: "1", name: "Sent" },
      { id: "2", name: "Stopped here" },
      { id: "3", name: "Not tried" },
    ]);
    const { fetcher, bodies } = server(new Map(), (body) => (body.includes('"id":2') ? failure : undefined));
    expect(await sendWaitingPlants(store, fetcher)).toEqual({ sent: [{ seq: 1, plant: { id: 1n, name: "Sent" }, replayed: false }], refused: 0, stopped });
    expect(bodies).toHaveLength(2);
    expect(store.held.map((waiting) => [waiting.plant.id, waiting.problem])).toEqual([
      ["2", undefined],
      ["3", undefined],
    ]);
  });
});
