import { expect, it } from "vitest";
import { type AppServer, createToken } from "@/test/support/app-server";

// An unexpected failure (here: the table is gone) answers a fixed 500 and is
// logged with the request id; nothing about the cause reaches the client.
// It drops the plants table for good: the last test on its app.

export function describeUnexpectedError(ownApp: () => AppServer): void {
  it("answers a fixed 500 with a request id, logs the cause and keeps serving", async () => {
    const app = ownApp();
    const token = await createToken(app.database, ["plants:write"], "1h", "unexpected-error");
    await app.database.query("DROP TABLE plants");
    const response = await fetch(`${app.url}/plants`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: '{"id":1,"name":"Fern"}',
    });
    expect(response.status).toBe(500);
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: 500, message: expect.stringMatching(/^internal server error/) });
    expect(text).not.toMatch(/plants|sql|prisma|stack|\.ts/i);
    await expect.poll(() => app.output()).toContain(requestId);

    const again = await fetch(`${app.url}/plants`, { method: "POST", body: "{}" });
    expect(again.status).toBe(401);
  });
}
