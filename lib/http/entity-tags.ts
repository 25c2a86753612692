import { ApiError } from "@/lib/http/api-error";
import { type PlantVersion, plantVersionTag } from "@/lib/plants/plant-version";

// Entity tags (RFC 9110 section 8.8.3), and the fields of the conditional
// requests built on them (section 13.1, evaluated by lib/http/preconditions.ts):
// a plant's ETag is its version.

/** A plant version's strong ETag: its tag in quotes. */
export function plantEtag(version: PlantVersion): string {
  return `"${plantVersionTag(version)}"`;
}

export type EntityTag = { weak: boolean; opaque: string };

// entity-tag = [ weak ] opaque-tag; weak = %s"W/"; opaque-tag = DQUOTE *etagc DQUOTE;
// etagc = %x21 / %x23-7E / obs-text. Headers arrive as Latin-1, so obs-text is \x80-\xff.
const ENTITY_TAG = /(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"/y;
const SEPARATORS = /[ \t,]*/y;

/**
 * The field `name` as "*" or its list of entity-tags (commas between, empty
 * elements allowed, RFC 9110 section 5.6.1), or undefined when absent. A
 * malformed one is a 400: a condition the server cannot read must not be
 * ignored, or a conditional write would become an unconditional one.
 */
export function readEntityTags(request: Request, name: "If-Match" | "If-None-Match"): "*" | EntityTag[] | undefined {
  const field = request.headers.get(name);
  if (field === null) return undefined;
  if (field.trim() === "*") return "*";
  const tags: EntityTag[] = [];
  let at = 0;
  for (;;) {
    SEPARATORS.lastIndex = at;
    const gap = SEPARATORS.exec(field)![0];
    at += gap.length;
    if (at === field.length) break;
    // Between two tags there must be a comma.
    if (tags.length > 0 && !gap.includes(",")) throw malformed(name);
    ENTITY_TAG.lastIndex = at;
    const match = ENTITY_TAG.exec(field);
    if (!match) throw malformed(name);
    tags.push({ weak: match[1] !== undefined, opaque: match[2]! });
    at = ENTITY_TAG.lastIndex;
  }
  if (tags.length === 0) throw malformed(name);
  return tags;
}

function malformed(name: string): ApiError {
  const message = `${name} must be "*" or a comma-separated list of entity-tags such as "1.mhs1wq9c", as an ETag header sends them`;
  return new ApiError("BadRequest", message, { details: [{ field: name, message }] });
}
