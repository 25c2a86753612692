import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { encode } from "next-auth/jwt";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/api-error";
import { requireScope } from "@/lib/bearer-auth";
import { env } from "@/lib/env";
import { migrate } from "@/lib/migrate";
import { createApiToken } from "@/lib/tokens";
import { createUser } from "@/lib/users";

// The staff session path of requireScope; the bearer path is covered over HTTP.

const APP = "http://127.0.0.1:3000";
let cookie = "";

beforeAll(async () => {
  vi.stubEnv("DATA_DIR", mkdtempSync(path.join(tmpdir(), "plant-store-auth-")));
  vi.stubEnv("DATABASE_URL", "");
  vi.stubEnv("NEXTAUTH_SECRET", "");
  vi.stubEnv("NEXTAUTH_URL", "");
  migrate(env().databasePath);
  const user = await createUser({ email: "sam@example.com", name: "Sam", role: "staff", password: "a long passphrase" });
  cookie = `next-auth.session-token=${await encode({ token: { sub: user.id }, secret: env().authSecret })}`;
});

function post(headers: Record<string, string>): Request {
  return new Request(`${APP}/plants`, { method: "POST", headers: { host: "127.0.0.1:3000", ...headers } });
}

async function refusal(request: Request): Promise<{ status: number; message: string; challenge?: string }> {
  const error: unknown = await requireScope(request, "plants:write").then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ApiError)) throw new Error("expected an ApiError");
  return { status: error.status, message: error.message, challenge: error.extra.headers?.["www-authenticate"] };
}

describe("requireScope with a staff session cookie", () => {
  it("accepts it from the app's own origin", async () => {
    const caller = await requireScope(post({ cookie, "sec-fetch-site": "same-origin" }), "plants:write");
    expect(caller).toMatchObject({ kind: "staff", user: { email: "sam@example.com" } });
    expect(await requireScope(post({ cookie, origin: APP }), "plants:write")).toMatchObject({ kind: "staff" });
  });

  it.each([
    ["another site", { origin: "https://evil.example" }],
    ["the same site on another port", { "sec-fetch-site": "same-site", origin: "http://127.0.0.1:4000" }],
    ["a request with no origin evidence", {}],
  ])("refuses it from %s with 403", async (_, headers) => {
    expect(await refusal(post({ cookie, ...headers }))).toMatchObject({ status: 403, challenge: undefined });
  });

  it("ignores the cookie when an Authorization header is present", async () => {
    expect(await refusal(post({ cookie, "sec-fetch-site": "same-origin", authorization: "Basic dTpw" }))).toMatchObject({ status: 401 });
  });

  it("answers 401 with a Bearer challenge for a forged or foreign cookie", async () => {
    const forged = `next-auth.session-token=${await encode({ token: { sub: "x" }, secret: "another secret of at least thirty-two characters" })}`;
    expect(await refusal(post({ cookie: forged, "sec-fetch-site": "same-origin" }))).toMatchObject({ status: 401, challenge: 'Bearer realm="plant-store"' });
  });

  it("does not take an API token as a session cookie", async () => {
    const { token } = await createApiToken({ label: "t", scopes: ["plants:write"], lifetimeSeconds: 60 });
    expect(await refusal(post({ cookie: `next-auth.session-token=${token}`, "sec-fetch-site": "same-origin" }))).toMatchObject({ status: 401 });
  });
});
