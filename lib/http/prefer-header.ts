import { splitOutsideQuotes, TOKEN, unquote } from "@/lib/http/header-syntax";

// Prefer (RFC 7240): what a client would like the server to do, which the
// server may or may not honour; Preference-Applied says which it did.

/**
 * The preferences of a request's Prefer fields (several fields read as one
 * list), by lower-case name, each with its value ("" when it has none). Only
 * the first instance of a preference counts (section 2); a malformed member
 * is ignored, as an unknown preference would be.
 */
export function readPreferences(prefer: string | null): Map<string, string> {
  const preferences = new Map<string, string>();
  for (const member of splitOutsideQuotes(prefer ?? "", ",")) {
    // Parameters (after ";") refine a preference; none of ours takes any.
    const [preference = ""] = splitOutsideQuotes(member, ";");
    const equals = preference.indexOf("=");
    const name = (equals < 0 ? preference : preference.slice(0, equals)).trim().toLowerCase();
    const value = equals < 0 ? "" : unquote(preference.slice(equals + 1).trim());
    if (!TOKEN.test(name) || value === undefined || preferences.has(name)) continue;
    preferences.set(name, value);
  }
  return preferences;
}

/** `Prefer: count=exact` (PostgREST's spelling): the client wants the total of the whole match. */
export const EXACT_COUNT = "count=exact";

export function prefersExactCount(request: Request): boolean {
  return readPreferences(request.headers.get("prefer")).get("count")?.toLowerCase() === "exact";
}
