import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, createToken, startApp } from "@/test/support/app-server";

// Per token on the API, and per client address for requests without valid
// credentials; answers per the IETF httpapi RateLimit headers draft.

let app: AppServer;

beforeAll(async () => {
  // Windows of an hour: a test's requests must all fall in one, however slow the machine (issue 31).
  app = await startApp({ env: { RATE_LIMIT_API: "5/1h", RATE_LIMIT_ANONYMOUS: "4/1h" } });
});

afterAll(async () => {
  await app?.stop();
});

function list(headers: Record<string, string>): Promise<Response> {
  return fetch(`${app.url}/plants`, { headers });
}

describe("per token", () => {
  it("tells what is left on every answer, then answers 429 with Retry-After, in the Error shape", async () => {
    const token = await createToken(app.database, ["plants:read"]);
    const remaining: (string | null)[] = [];
    for (let request = 1; request <= 5; request++) {
      const response = await list({ authorization: `Bearer ${token}` });
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-policy")).toBe('"api";q=5;w=3600');
      remaining.push(response.headers.get("ratelimit"));
    }
    expect(remaining.map((value) => value?.match(/^"api";r=(\d);t=\d+$/)?.[1])).toEqual(["4", "3", "2", "1", "0"]);

    const refused = await list({ authorization: `Bearer ${token}` });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.headers.get("ratelimit")).toMatch(/^"api";r=0;t=\d+$/);
    expect(await refused.json()).toEqual({ error: 429, message: `too many requests; retry after ${retryAfter} s` });
  });

  it("counts each token apart", async () => {
    const [first, second] = await Promise.all([createToken(app.database, ["plants:read"]), createToken(app.database, ["plants:read"])]);
    for (let request = 0; request < 6; request++) await list({ authorization: `Bearer ${first}` });
    expect((await list({ authorization: `Bearer ${first}` })).status).toBe(429);
    expect((await list({ authorization: `Bearer ${second}` })).status).toBe(200);
  });
});

describe("per client address, without valid credentials", () => {
  it("answers 429 instead of 401 once a guesser has spent its allowance, whatever it tries, and a forged X-Forwarded-For changes nothing", async () => {
    const guesses = await Promise.all(Array.from({ length: 4 }, (_, index) => list({ authorization: `Bearer guess-${index}` })));
    expect(guesses.map((response) => response.status)).toEqual([401, 401, 401, 401]);
    const attempts: Record<string, string>[] = [{ authorization: "Bearer guess-5" }, {}, { authorization: "Bearer guess-6", "x-forwarded-for": "203.0.113.7" }];
    for (const headers of attempts) {
      const refused = await list(headers);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("ratelimit-policy")).toBe('"anonymous";q=4;w=3600');
      expect((await refused.json()) as object).toMatchObject({ error: 429, message: expect.stringMatching(/^too many requests without valid credentials from this address; retry after \d+ s$/) });
    }
    // A valid token from the same address is not held back by the guesser's failures.
    const token = await createToken(app.database, ["plants:read"]);
    expect((await list({ authorization: `Bearer ${token}` })).status).toBe(200);
  });
});

describe("behind a trusted proxy", () => {
  let proxied: AppServer;

  beforeAll(async () => {
    proxied = await startApp({ env: { RATE_LIMIT_ANONYMOUS: "2/1h", TRUST_PROXY: "loopback" } });
  });

  afterAll(async () => {
    await proxied?.stop();
  });

  it("counts each client the proxy names in X-Forwarded-For apart", async () => {
    const from = (address: string) => fetch(`${proxied.url}/plants`, { headers: { "x-forwarded-for": address } });
    expect([(await from("198.51.100.1")).status, (await from("198.51.100.1")).status, (await from("198.51.100.1")).status]).toEqual([401, 401, 429]);
    expect((await from("198.51.100.2")).status).toBe(401);
  });
});
