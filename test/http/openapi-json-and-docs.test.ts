import { describe, expect, it } from "vitest";
import { stringifyExactJson } from "@/lib/json/exact-json";
import { buildOpenApiDocument } from "@/lib/api/openapi-document";
import { sharedApp } from "@/test/support/shared-app";

// The document and the reference page are public and served by the built app
// (the one the HTTP files share: neither depends on the data).

const app = sharedApp();

describe("GET /openapi.json", () => {
  it("serves the document built from the zod schemas, exactly, without authentication", async () => {
    const response = await fetch(`${app.url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.text()).toBe(stringifyExactJson(buildOpenApiDocument()));
  });

  it("answers other methods with 405 and Allow", async () => {
    const response = await fetch(`${app.url}/openapi.json`, { method: "POST" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });
});

describe("GET /docs", () => {
  it("serves the API reference page without authentication, with no third-party script or style", async () => {
    const response = await fetch(`${app.url}/docs`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<title>Plant Store API reference</title>");
    const external = [...html.matchAll(/(?:src|href)="(https?:\/\/[^"]+)"/g)].map((match) => match[1]);
    expect(external).toEqual([]);
  });
});
