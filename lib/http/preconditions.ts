import { ApiError } from "@/lib/http/api-error";
import { type EntityTag, readEntityTags } from "@/lib/http/entity-tags";

// Conditional requests (RFC 9110 section 13; issue 20): If-Match and
// If-None-Match are evaluated for every method, in the order of section
// 13.2.2, by this one function, against the current entity-tag of a resource
// that exists. A change or a delete is evaluated on the version it then
// writes, conditionally on that version, so nothing slips in between.
//
// What is not evaluated, and why:
// - If-Unmodified-Since and If-Modified-Since (steps 2 and 4): the API sends
//   no Last-Modified, so no client holds a date of ours to send, and a
//   recipient ignores them when no modification date is available (sections
//   13.1.3 and 13.1.4); If-Match and If-None-Match override them anyway.
// - If-Range (step 5): it only applies to a Range request, and the API serves
//   no ranges (section 13.1.5).
// - Any condition on a resource that does not exist: the answer is 404 with
//   or without them. Section 13.2.1 has a server ignore preconditions when the
//   answer without them would be neither 2xx nor 412, and no method here
//   creates a resource (PUT, where If-Match: * or If-None-Match: * would
//   decide, answers 405).

export type Preconditions = {
  /** GET or HEAD: a false If-None-Match answers 304 rather than 412 (section 13.1.2). */
  safe: boolean;
  ifMatch: "*" | EntityTag[] | undefined;
  ifNoneMatch: "*" | EntityTag[] | undefined;
};

/** The request's If-Match and If-None-Match, or undefined when it has neither; a malformed one is a 400. */
export function readPreconditions(request: Request): Preconditions | undefined {
  const ifMatch = readEntityTags(request, "If-Match");
  const ifNoneMatch = readEntityTags(request, "If-None-Match");
  if (ifMatch === undefined && ifNoneMatch === undefined) return undefined;
  return { safe: request.method === "GET" || request.method === "HEAD", ifMatch, ifNoneMatch };
}

/** The resource a request's conditions are judged against: its ETag as the ETag field sends it, and how a message names it ("plant 42"). */
export type ConditionalResource = { etag: string; name: string };

/**
 * Section 13.2.2's evaluation against a resource that exists: "proceed", or
 * "not modified" for a GET or HEAD whose If-None-Match names the current
 * version (a 304). A false condition on any other method throws the 412,
 * which carries the current ETag to try again from.
 */
export function evaluatePreconditions({ safe, ifMatch, ifNoneMatch }: Preconditions, { etag, name }: ConditionalResource): "proceed" | "not modified" {
  const weak = etag.startsWith("W/");
  const opaque = etag.slice(weak ? 3 : 1, -1);
  // Step 1. "*" holds for any current representation; a tag by strong comparison (section 8.8.3.2): neither may be weak.
  if (ifMatch !== undefined && ifMatch !== "*" && !ifMatch.some((tag) => !tag.weak && !weak && tag.opaque === opaque)) {
    throw preconditionFailed(`${name} has changed since the version named: it is now at ${etag}${safe ? "" : "; nothing was changed"}`, etag);
  }
  // Step 3. "*" is false for any current representation; a tag by weak comparison, which ignores W/.
  const named = ifNoneMatch === "*" || (ifNoneMatch?.some((tag) => tag.opaque === opaque) ?? false);
  if (!named) return "proceed";
  if (safe) return "not modified";
  const why = ifNoneMatch === "*" ? `${name} exists, and If-None-Match: * allows this only where it does not` : `${name} is at ${etag}, a version If-None-Match names`;
  throw preconditionFailed(`${why}; nothing was changed`, etag);
}

function preconditionFailed(message: string, etag: string): ApiError {
  return new ApiError("PreconditionFailed", message, { headers: { etag } });
}
