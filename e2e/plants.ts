import type { APIRequestContext, Page } from "@playwright/test";
import { expect } from "./fixtures";
import type { Store } from "./support/store";

// What the plants specs share: plants made through the API (exact ids, as
// JSON text: Playwright's `data` would pass them through JSON.stringify),
// and a bearer token for the API's side of a URL.

export type NewPlant = { id: bigint; name: string; tag?: string };

export function plantJson({ id, name, tag }: NewPlant): string {
  return `{"id":${id},"name":${JSON.stringify(name)}${tag === undefined ? "" : `,"tag":${JSON.stringify(tag)}`}}`;
}

/**
 * Stores plants in one POST /plants/batch with the signed-in owner's session, as the app's own pages would.
 * Each must be stored by this call: one whose id another spec has taken fails here, named, rather than the
 * spec running on another's plant (or on none). `again`: the same plants are stored before every test of a
 * file (a beforeEach), so the ones an earlier test stored are "already stored", the same plant unchanged.
 */
export async function addPlants(page: Page, plants: NewPlant[], { again = false }: { again?: boolean } = {}): Promise<void> {
  const response = await page.request.post("/plants/batch", {
    headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
    data: `[${plants.map(plantJson).join(",")}]`,
  });
  expect(response.status(), await response.text()).toBe(200);
  const accepted = again ? ["stored", "already stored"] : ["stored"];
  // Only each result's place and status are read: JSON.parse may round an id, the spec's own plants are exact.
  const results = (await response.json()) as { index: number; status: string; error?: { message: string } }[];
  const notStored = results
    .filter((result) => !accepted.includes(result.status))
    .map(({ index, status, error }) => `plant ${plants[index]!.id} (${plants[index]!.name}): ${status}${error ? `, ${error.message}` : ""}`);
  expect(notStored, "plants this spec could not store as its own: give it ids no other spec uses").toEqual([]);
}

/** Sets when a plant was added, as the app writes times on either engine (ISO 8601, UTC). */
export async function setAddedAt(sql: (statement: string, params?: unknown[]) => Promise<unknown>, id: bigint, iso: string): Promise<void> {
  await sql("UPDATE plants SET created_at = $1 WHERE id = $2", [iso.replace("Z", "+00:00"), id.toString()]);
}

/** A plants:write token, as the operator's `token create` makes one. */
export function writeToken(store: Store): Promise<string> {
  return store.createToken("e2e plants", ["plants:write"]);
}

/** The API as a program calls it: a bearer token, no cookies. */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** Changes a plant through the API, as another client would, between a page's load and its save. */
export async function patchAsSomeoneElse(request: APIRequestContext, token: string, id: bigint, body: string): Promise<void> {
  const response = await request.patch(`/plants/${id}`, { headers: { ...bearer(token), "content-type": "application/merge-patch+json" }, data: body });
  expect(response.status(), await response.text()).toBe(200);
}

/**
 * Cuts the page off from the change feed (GET /plants/events), as a proxy that does not pass it would: the
 * page then learns of someone else's change only when its save meets the 412, the path these specs test.
 * With the feed, the page would learn of it at once (e2e/live-updates.spec.ts).
 */
export async function withoutLiveUpdates(page: Page): Promise<void> {
  await page.route(/\/plants\/events(\?|$)/, (route) => route.abort());
}
