import { afterEach, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { createApiToken } from "@/lib/auth/api-tokens/api-tokens";
import { apiRoute, otherMethods } from "@/lib/http/api-route";
import { jsonResponse } from "@/lib/http/json-response";
import { PlantConflictError, PlantNotFoundError } from "@/lib/plants/plant-errors";
import { log } from "@/lib/server/log";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// The wrapper every API handler goes through, called as Next calls it.

setUpTestDatabase();

const NO_PARAMS = { params: Promise.resolve({}) };
const request = (headers: Record<string, string> = {}) => new NextRequest("http://127.0.0.1:3000/plants", { headers });

afterEach(() => {
  vi.restoreAllMocks();
});

describe("apiRoute", () => {
  it("authenticates by the declared scope before the handler runs", async () => {
    const handler = vi.fn(async () => new Response("ran"));
    const route = apiRoute({ operation: "test", scope: "plants:write" }, handler);

    const anonymous = await route(request(), NO_PARAMS);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe('Bearer realm="plant-store"');

    const { token: reader } = await createApiToken({ label: "reader", scopes: ["plants:read"], lifetimeSeconds: 60 }, TEST_BY);
    expect((await route(request({ authorization: `Bearer ${reader}` }), NO_PARAMS)).status).toBe(403);
    expect(handler).not.toHaveBeenCalled();
  });

  it("hands the handler the authenticated caller and the route's params", async () => {
    const { token, info } = await createApiToken({ label: "writer", scopes: ["plants:write"], lifetimeSeconds: 60 }, TEST_BY);
    const route = apiRoute({ operation: "test", scope: "plants:write" }, async ({ caller, params }) =>
      jsonResponse({ caller: caller.kind === "token" ? caller.token.id : caller.user.id, params }),
    );
    const response = await route(request({ authorization: `Bearer ${token}` }), { params: Promise.resolve({ id: "7" }) });
    expect(await response.json()).toEqual({ caller: info.id, params: { id: "7" } });
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("gives a public operation no caller, and reads no credentials", async () => {
    const route = apiRoute({ operation: "test", scope: null }, async ({ caller }) => jsonResponse({ caller }));
    expect(await (await route(request({ authorization: "Bearer not-a-token" }), NO_PARAMS)).json()).toEqual({ caller: null });
  });

  it.each([
    [new PlantConflictError(5n), 409, "a plant with id 5 already exists with different data"],
    [new PlantNotFoundError(5n), 404, "no plant has id 5"],
  ])("answers the domain error %s with its kind's status", async (thrown, status, message) => {
    const route = apiRoute({ operation: "test", scope: null }, async () => {
      throw thrown;
    });
    const response = await route(request(), NO_PARAMS);
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ error: status, message });
  });

  it("answers anything else with a fixed 500, and logs the cause under the request id", async () => {
    const logged = vi.spyOn(log, "error").mockImplementation(() => {});
    const route = apiRoute({ operation: "test", scope: null }, async () => {
      throw new Error("SQLITE_CORRUPT: /secret/path/plant-store.db");
    });
    const response = await route(request(), NO_PARAMS);
    const requestId = response.headers.get("x-request-id");
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain("SQLITE");
    expect(JSON.parse(text)).toEqual({ error: 500, message: expect.stringMatching(/^internal server error/) });
    expect(logged).toHaveBeenCalledWith("unhandled error", expect.objectContaining({ requestId, detail: "SQLITE_CORRUPT: /secret/path/plant-store.db" }));
  });
});

describe("otherMethods", () => {
  it("answers 405 with the methods the path's declarations allow", async () => {
    const { PUT, OPTIONS } = otherMethods("/plants/{id}");
    const refused = await PUT(request(), NO_PARAMS);
    expect(refused.status).toBe(405);
    expect(refused.headers.get("allow")).toBe("GET, HEAD, PATCH, DELETE, OPTIONS");
    const options = await OPTIONS(request());
    expect(options.headers.get("allow")).toBe("GET, HEAD, PATCH, DELETE, OPTIONS");
    // RFC 5789 section 3.1: a path that takes PATCH names the patch formats it takes.
    expect(options.headers.get("accept-patch")).toBe("application/merge-patch+json, application/json");
    expect((await otherMethods("/plants").OPTIONS(request())).headers.get("accept-patch")).toBeNull();
  });
});
