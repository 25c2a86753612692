import { stringifyExactJson } from "@/lib/json/exact-json";

/** A JSON answer, never cached, with bigints (ids) written as exact JSON integers. */
export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/json");
  headers.set("cache-control", "no-store");
  return new Response(stringifyExactJson(body), { ...init, headers });
}
