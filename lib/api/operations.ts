import type { ErrorKindName } from "@/lib/http/error-catalogue";
import type { Scope } from "@/lib/validations/api-token";

// Every operation the API serves, declared once. The route wrapper
// (lib/http/api-route.ts) authenticates by the declared scope before a
// handler runs, and the OpenAPI document takes each operation's id,
// security and error answers from here.

export type OperationDeclaration = {
  /** The operationId, and the operation's name in logs. */
  operation: string;
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** The path as an OpenAPI template. */
  path: string;
  /** The scope a caller needs; null for a public operation, said so explicitly. */
  scope: Scope | null;
  /** The errors it answers besides the ones every operation may: 401, 403, 429 and 503 when it has a scope, and 500. */
  errors: readonly ErrorKindName[];
  /** Probes: logged at debug level only, so a load balancer's polling does not fill the log. */
  quiet?: true;
};

const DECLARED = [
  { operation: "listPlants", method: "GET", path: "/plants", scope: "plants:read", errors: ["BadRequest", "NotAcceptable"] },
  {
    operation: "createPlant",
    method: "POST",
    path: "/plants",
    scope: "plants:write",
    errors: ["BadRequest", "Conflict", "PayloadTooLarge", "UnsupportedMediaType"],
  },
  {
    operation: "createPlants",
    method: "POST",
    path: "/plants/batch",
    scope: "plants:write",
    errors: ["BadRequest", "PayloadTooLarge", "UnsupportedMediaType"],
  },
  { operation: "getPlant", method: "GET", path: "/plants/{id}", scope: "plants:read", errors: ["BadRequest", "NotFound", "PreconditionFailed"] },
  {
    operation: "updatePlant",
    method: "PATCH",
    path: "/plants/{id}",
    scope: "plants:write",
    errors: ["BadRequest", "NotFound", "PreconditionFailed", "PayloadTooLarge", "UnsupportedMediaType"],
  },
  { operation: "deletePlant", method: "DELETE", path: "/plants/{id}", scope: "plants:write", errors: ["BadRequest", "NotFound", "PreconditionFailed"] },
  { operation: "getPlantHistory", method: "GET", path: "/plants/{id}/history", scope: "plants:read", errors: ["BadRequest", "NotFound"] },
  { operation: "followPlantChanges", method: "GET", path: "/plants/events", scope: "plants:read", errors: ["BadRequest", "NotAcceptable", "Gone"] },
  { operation: "getOpenApiDocument", method: "GET", path: "/openapi.json", scope: null, errors: [] },
  { operation: "getLiveness", method: "GET", path: "/healthz", scope: null, errors: [], quiet: true },
  { operation: "getReadiness", method: "GET", path: "/readyz", scope: null, errors: ["ServiceUnavailable"], quiet: true },
] as const satisfies readonly OperationDeclaration[];

export type OperationName = (typeof DECLARED)[number]["operation"];

export const operations = Object.fromEntries(DECLARED.map((declaration) => [declaration.operation, declaration])) as {
  [Name in OperationName]: Extract<(typeof DECLARED)[number], { operation: Name }>;
};

/** The declarations in the order they were declared. */
export const OPERATIONS: readonly OperationDeclaration[] = DECLARED;

/**
 * Every error an operation may answer, its own and the ones common to all.
 * Checking a caller reads the database, so an operation with a scope may
 * also meet a database that cannot be used just now (503).
 */
export function operationErrors(declaration: OperationDeclaration): ErrorKindName[] {
  const auth: ErrorKindName[] = declaration.scope === null ? [] : ["Unauthorized", "Forbidden", "TooManyRequests", "ServiceUnavailable"];
  return [...declaration.errors, ...auth, "InternalError"];
}

/**
 * The errors the server answers itself, on any path, before an operation is
 * chosen: a method the path lacks, and a request it cannot read as HTTP/1.x
 * (too slow, too large a head, an Expect it cannot meet, another version).
 */
export const SERVER_ERRORS: readonly ErrorKindName[] = ["MethodNotAllowed", "RequestTimeout", "ExpectationFailed", "HeaderFieldsTooLarge", "HttpVersionNotSupported"];

/** The methods a path answers: its declared ones, and HEAD wherever GET is (Next answers HEAD with the GET handler). */
export function allowedMethods(path: string): string[] {
  return OPERATIONS.filter((declaration) => declaration.path === path).flatMap(({ method }) => (method === "GET" ? ["GET", "HEAD"] : [method]));
}

const PATH_PATTERNS = [...new Set(OPERATIONS.map((declaration) => declaration.path))].map((template) => ({
  template,
  // A {parameter} matches one path segment.
  pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
}));

/** The declared path template a request path belongs to, if any ("/plants/42" -> "/plants/{id}"). */
export function operationPath(pathname: string): string | undefined {
  return PATH_PATTERNS.find(({ pattern }) => pattern.test(pathname))?.template;
}
