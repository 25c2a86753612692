import { beforeAll, describe, expect, it } from "vitest";
import { type AppServer, createToken } from "@/test/support/app-server";
import type { GuardedApps } from "./guarded-apps";
import { makeAccount } from "@/test/support/accounts";

// Answers hardened against the browser attacks of the day: security headers
// and a nonce CSP on pages, a strict CSP on everything else, HSTS and Secure
// cookies under an https NEXTAUTH_URL, and CORS only for listed origins.

const OWNER = { email: "olive@plants.example", password: "correct horse battery staple" };

export function describeHardenedAnswers(guardedApps: () => GuardedApps): void {
  let app: AppServer;

  beforeAll(async () => {
    app = guardedApps().app;
    await makeAccount(app.database, { ...OWNER, role: "owner" });
  });

  const HARDENING = { "x-content-type-options": "nosniff", "referrer-policy": "strict-origin-when-cross-origin", "x-frame-options": "DENY" };

  function headersOf(response: Response): Record<string, string | null> {
    return Object.fromEntries(Object.keys(HARDENING).map((name) => [name, response.headers.get(name)]));
  }

  describe("pages", () => {
    it("carry the security headers and a CSP whose nonce, fresh on every request, is on every script", async () => {
      const nonces: string[] = [];
      for (let request = 0; request < 2; request++) {
        const response = await fetch(`${app.url}/sign-in`);
        expect(response.status).toBe(200);
        expect(headersOf(response)).toEqual(HARDENING);
        const policy = response.headers.get("content-security-policy") ?? "";
        const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)' 'strict-dynamic';/.exec(policy)?.[1];
        expect(nonce, policy).toBeDefined();
        expect(policy).toContain("frame-ancestors 'none'");
        expect(policy).toContain("object-src 'none'");
        expect(policy).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
        const scripts = [...(await response.text()).matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag);
        expect(scripts.length).toBeGreaterThan(0);
        expect(scripts.filter((tag) => !tag.includes(`nonce="${nonce}"`))).toEqual([]);
        nonces.push(nonce!);
      }
      expect(nonces[0]).not.toBe(nonces[1]);
    });

    it("send no HSTS while the app is not known to be served over https", async () => {
      expect((await fetch(`${app.url}/sign-in`)).headers.get("strict-transport-security")).toBeNull();
    });
  });

  describe("everything else", () => {
    it.each([
      ["the API", "/plants", 401],
      ["the OpenAPI document", "/openapi.json", 200],
      ["a probe", "/healthz", 200],
    ])("%s answers with the security headers and a CSP that allows nothing", async (_, path, status) => {
      const response = await fetch(`${app.url}${path}`);
      expect(response.status).toBe(status);
      expect(headersOf(response)).toEqual(HARDENING);
      expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    });

    it.each([
      ["the web app manifest", "/manifest.webmanifest", "application/manifest+json"],
      ["the icon", "/icon.svg", "image/svg+xml"],
    ])("%s is public, and answers with the strict CSP (no page nonce: the proxy passes it by)", async (_, path, type) => {
      const response = await fetch(`${app.url}${path}`, { redirect: "manual" });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain(type);
      expect(headersOf(response)).toEqual(HARDENING);
      expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    });

    it("the service worker is public, never answered from a cache, and may fetch from the app's origin only", async () => {
      const response = await fetch(`${app.url}/sw.js`, { redirect: "manual" });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(headersOf(response)).toEqual(HARDENING);
      expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; connect-src 'self'");
      expect(await response.text()).toContain(`"/plants/new"`);
    });

    it("pages allow the app's own service worker and manifest, by name", async () => {
      const policy = (await fetch(`${app.url}/sign-in`)).headers.get("content-security-policy");
      expect(policy).toContain("worker-src 'self'");
      expect(policy).toContain("manifest-src 'self'");
    });

    it("includes the server's own refusals", async () => {
      const response = await fetch(`${app.url}/plants`, { method: "PROPFIND" });
      expect(response.status).toBe(405);
      expect(headersOf(response)).toEqual(HARDENING);
    });
  });

  /** Signs in through next-auth's own endpoints, as the sign-in form does, and returns the Set-Cookie headers of the answer. */
  async function signInCookies(server: AppServer): Promise<string[]> {
    const csrf = await fetch(`${server.url}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const cookie = csrf.headers.getSetCookie().map((each) => each.split(";")[0]).join("; ");
    const response = await fetch(`${server.url}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ csrfToken, email: OWNER.email, password: OWNER.password, json: "true" }),
    });
    return response.headers.getSetCookie();
  }

  describe("the session cookie", () => {
    it("is HttpOnly and SameSite=Lax, and not Secure over plain http", async () => {
      const session = (await signInCookies(app)).find((cookie) => cookie.startsWith("next-auth.session-token="));
      expect(session).toBeDefined();
      expect(session).toMatch(/; HttpOnly/);
      expect(session).toMatch(/; SameSite=Lax/);
      expect(session).not.toMatch(/; Secure/);
    });
  });

  describe("served over https (NEXTAUTH_URL)", () => {
    let secure: AppServer;

    beforeAll(async () => {
      secure = guardedApps().secure;
      await makeAccount(secure.database, { ...OWNER, role: "owner" });
    });

    it("sends HSTS on pages and API answers alike", async () => {
      for (const path of ["/sign-in", "/plants"]) {
        expect((await fetch(`${secure.url}${path}`)).headers.get("strict-transport-security")).toBe("max-age=31536000");
      }
    });

    it("sets the session cookie as __Secure-, Secure, HttpOnly and SameSite=Lax", async () => {
      const session = (await signInCookies(secure)).find((cookie) => cookie.startsWith("__Secure-next-auth.session-token="));
      expect(session).toMatch(/; HttpOnly/);
      expect(session).toMatch(/; Secure/);
      expect(session).toMatch(/; SameSite=Lax/);
    });
  });

  describe("CORS", () => {
    it("answers a preflight from a listed origin, and nothing of CORS to another", async () => {
      const preflight = (origin: string) =>
        fetch(`${app.url}/plants`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" } });
      const allowed = await preflight("https://shop.example");
      expect(allowed.status).toBe(204);
      expect(Object.fromEntries([...allowed.headers].filter(([name]) => name.startsWith("access-control-")))).toEqual({
        "access-control-allow-origin": "https://shop.example",
        "access-control-allow-methods": "GET, HEAD, POST, OPTIONS",
        "access-control-allow-headers": "Authorization, Content-Type, Prefer, If-Match, If-None-Match",
        "access-control-max-age": "600",
      });
      const other = await preflight("https://evil.example");
      expect([...other.headers.keys()].filter((name) => name.startsWith("access-control-"))).toEqual([]);
    });

    it("lets a listed origin read an answer to a bearer token, with the headers a client needs, and never credentials", async () => {
      const token = await createToken(app.database, ["plants:read"], "1h", "hardened-answers");
      const response = await fetch(`${app.url}/plants?limit=1`, { headers: { origin: "https://shop.example", authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get("access-control-allow-origin")).toBe("https://shop.example");
      expect(response.headers.get("access-control-expose-headers")).toBe("Link, X-Request-Id, Retry-After, RateLimit, RateLimit-Policy, X-Total-Count, Preference-Applied, Content-Disposition, ETag, Idempotent-Replayed");
      expect(response.headers.get("access-control-allow-credentials")).toBeNull();
      expect(response.headers.get("vary")).toContain("Origin");
      const elsewhere = await fetch(`${app.url}/plants?limit=1`, { headers: { origin: "https://evil.example", authorization: `Bearer ${token}` } });
      expect(elsewhere.headers.get("access-control-allow-origin")).toBeNull();
    });

    it("never accepts a staff session's cookie from a listed origin", async () => {
      const session = (await signInCookies(app)).find((cookie) => cookie.startsWith("next-auth.session-token="))!.split(";")[0]!;
      const response = await fetch(`${app.url}/plants`, { headers: { origin: "https://shop.example", cookie: session } });
      expect(response.status).toBe(403);
    });
  });
}
