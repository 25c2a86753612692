import { request } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "@/test/support/app-server";
import type { GuardedApps } from "./guarded-apps";

// A server action posted from another origin (issue 20): Next.js refuses it
// with a plain 500 and an error in the log; the server refuses it first, with
// a 403 in the Error shape and a warning. The origin is decided as the app's
// same-origin rule decides it (lib/auth/same-origin.ts: Fetch Metadata, else
// Origin against NEXTAUTH_URL or the host the browser addressed); the app's
// own forms (their actions come from the same origin) still reach Next.

export function describeServerActionOrigin(guardedApps: () => GuardedApps): void {
  let app: AppServer;

  beforeAll(() => {
    app = guardedApps().app;
  });

  // Any id will do: the origin is decided before the action is looked up.
  const ACTION_ID = "7f".repeat(21);

  function postAction(server: AppServer, headers: Record<string, string>, path = "/tokens"): Promise<Response> {
    return post(server, path, { "next-action": ACTION_ID, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", ...headers }, Buffer.from("[]"));
  }

  async function postForm(server: AppServer, headers: Record<string, string>, path = "/tokens"): Promise<Response> {
    // A form posted before the page's script ran (or by another site's page): multipart, no Next-Action header.
    const form = new FormData();
    form.set(`$ACTION_ID_${ACTION_ID}`, "");
    form.set("name", "forged");
    const encoded = new Request("http://localhost/", { method: "POST", body: form });
    return post(server, path, { ...headers, "content-type": encoded.headers.get("content-type")! }, Buffer.from(await encoded.arrayBuffer()));
  }

  /** A POST through node:http, which, unlike fetch, sends the Host it is given (a proxy's, say). */
  function post(server: AppServer, path: string, headers: Record<string, string>, body: Buffer): Promise<Response> {
    return new Promise((resolve, reject) => {
      const sent = request(`${server.url}${path}`, { method: "POST", headers: { ...headers, "content-length": String(body.length) } }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => {
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(answer.headers)) for (const each of [value ?? []].flat()) answerHeaders.append(name, each);
          resolve(new Response(Buffer.concat(chunks), { status: answer.statusCode!, headers: answerHeaders }));
        });
      });
      sent.on("error", reject);
      sent.end(body);
    });
  }

  const REFUSAL = { error: 403, message: "a server action is accepted only from this app's own pages" };

  function warnings(server: AppServer): string[] {
    return server
      .output()
      .split("\n")
      .filter((line) => line.includes('"message":"server action from another origin refused"'));
  }

  async function expectRefused(response: Response): Promise<void> {
    expect(response.status).toBe(403);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await response.json()).toEqual(REFUSAL);
  }

  /** Next's own answer to an action it looked up and did not find: proof that the request reached it as an action. */
  async function expectReachedNext(response: Response): Promise<void> {
    expect(response.status, await response.clone().text()).not.toBe(403);
    expect(response.status).toBeLessThan(500);
    expect(response.headers.get("x-nextjs-action-not-found")).toBe("1");
  }

  describe("refused with 403 and a warning", () => {
    it.each<[string, Record<string, string>]>([
      ["another site's Origin", { origin: "https://evil.example" }],
      ["another port's Origin (same site, other origin)", { origin: "http://127.0.0.1:1" }],
      ["Fetch Metadata cross-site", { "sec-fetch-site": "cross-site", origin: "https://evil.example" }],
      ["Fetch Metadata same-site", { "sec-fetch-site": "same-site" }],
      ["an Origin that is no URL", { origin: "not a url" }],
    ])("an action with %s", async (_, headers) => {
      const before = warnings(app).length;
      await expectRefused(await postAction(app, headers));
      await expect.poll(() => warnings(app).length).toBe(before + 1);
      const warning = JSON.parse(warnings(app).at(-1)!) as Record<string, unknown>;
      expect(warning).toMatchObject({ level: "warn", path: "/tokens" });
    });

    it("another site's form, posted as multipart without Next-Action", async () => {
      await expectRefused(await postForm(app, { origin: "https://evil.example" }));
    });

    it("a matching Host with an X-Forwarded-Host that names another host (Next.js checks that one)", async () => {
      await expectRefused(await postAction(app, { origin: app.url, "x-forwarded-host": "plants.example", "x-forwarded-proto": "http" }));
    });

    it("is never logged as an error, and never answered 500", async () => {
      await postAction(app, { origin: "https://evil.example" });
      expect(app.output()).not.toMatch(/"level":"error"/);
      expect(app.output()).not.toContain("Invalid Server Actions request");
    });
  });

  describe("passed on to Next.js", () => {
    it.each<[string, (server: AppServer) => Record<string, string>]>([
      ["the app's own Origin", (server) => ({ origin: server.url })],
      ["Fetch Metadata same-origin with the app's Origin", (server) => ({ origin: server.url, "sec-fetch-site": "same-origin" })],
      ["no Origin and no Fetch Metadata (not a browser)", () => ({})],
      ["a proxy's X-Forwarded-Host and -Proto that the Origin matches", () => ({ origin: "https://plants.example", "x-forwarded-host": "plants.example", "x-forwarded-proto": "https" })],
    ])("an action with %s", async (_, headers) => {
      await expectReachedNext(await postAction(app, headers(app)));
    });

    it("a multipart POST to the API, whose routes are no actions (CORS decides there)", async () => {
      const response = await postForm(app, { origin: "https://evil.example" }, "/plants");
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: number }).error).toBe(401);
    });
  });

  describe("with NEXTAUTH_URL, behind a proxy that forwards Host", () => {
    let public_: AppServer;

    beforeAll(() => {
      public_ = guardedApps().secure;
    });

    it("passes an action from the public origin on", async () => {
      await expectReachedNext(await postAction(public_, { origin: "https://plants.example", host: "plants.example" }));
    });

    it("refuses one whose Origin is the address the app listens on, not its public origin", async () => {
      await expectRefused(await postAction(public_, { origin: public_.url }));
    });
  });
}
