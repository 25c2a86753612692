import type { NextRequest } from "next/server";

// Reads a request's query string for a zod schema.

/**
 * The query as an object: a name given once maps to its value, a repeated
 * name to all of its values, so a schema expecting one string refuses
 * `?limit=1&limit=2` instead of silently taking the first or the last.
 * Object.fromEntries makes every name an own property, so a strict schema
 * sees and refuses `constructor` like any unknown name (Next.js itself drops
 * `__proto__` from the query before a handler runs).
 */
export function readQuery(request: NextRequest): Record<string, string | string[]> {
  const values = new Map<string, string[]>();
  for (const [name, value] of request.nextUrl.searchParams) {
    values.set(name, [...(values.get(name) ?? []), value]);
  }
  return Object.fromEntries([...values].map(([name, given]) => [name, given.length === 1 ? given[0]! : given]));
}
