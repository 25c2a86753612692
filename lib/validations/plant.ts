import { z } from "zod";
import { INT64_MAX, INT64_MIN, PLANT_NAME_MAX, PLANT_TAG_MAX } from "@/lib/validations/plant-limits";

// The one schema for a new plant, used by the API route and the staff form.
// It imports only zod (and the limits it enforces) so it is safe to ship to the browser.

export { INT64_MAX, INT64_MIN, PLANT_NAME_MAX, PLANT_TAG_MAX };

function int64Rule(field: string): string {
  return `${field} must be an integer from ${INT64_MIN} to ${INT64_MAX}`;
}

/** An int64, exact: JSON bodies are parsed so that integers arrive as bigint. */
function int64Schema(field: string) {
  const rule = int64Rule(field);
  return z
    .bigint({ error: (issue) => (issue.input === undefined ? `${field} is required` : rule) })
    .min(INT64_MIN, rule)
    .max(INT64_MAX, rule);
}

export const plantIdSchema = int64Schema("id");

// C0, DEL and C1 controls (Unicode category Cc).
const CONTROL_CHARACTER = /\p{Cc}/u;

/**
 * What is wrong with a text value, or undefined; lengths count Unicode code
 * points, as JSON Schema does. A search text may be only whitespace (" " is
 * a fair substring of "Boston fern"); a stored name or tag may not.
 */
function textProblem(value: string, max: number, { blankAllowed = false } = {}): string | undefined {
  if (!value.isWellFormed()) return "must be valid Unicode (it has an unpaired surrogate)";
  if (CONTROL_CHARACTER.test(value)) return "must not contain control characters";
  const length = [...value].length;
  if (length === 0) return "must not be empty";
  if (length > max) return `must be at most ${max} characters (got ${length})`;
  if (!blankAllowed && value.trim() === "") return "must not be only whitespace";
  return undefined;
}

function textSchema(field: string, max: number) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a string`) })
    .superRefine((value, ctx) => {
      const problem = textProblem(value, max);
      if (problem) ctx.addIssue({ code: "custom", message: `${field} ${problem}` });
    })
    .meta({ minLength: 1, maxLength: max });
}

export const plantNameSchema = textSchema("name", PLANT_NAME_MAX).describe("The name of the plant");
export const plantTagSchema = textSchema("tag", PLANT_TAG_MAX).describe("Tag that specifies the type of the plant");

/** The messages of a body object's own issues: unknown fields named, and a body that is no object. */
function bodyObjectError(schemaName: string) {
  return (issue: z.core.$ZodRawIssue): string | undefined => {
    if (issue.code === "unrecognized_keys") return `unknown field${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.join(", ")}`;
    if (issue.code === "invalid_type") return `the body must be a JSON object (a ${schemaName})`;
    return undefined;
  };
}

export const newPlantSchema = z.strictObject(
  {
    id: plantIdSchema.describe("Identification number of the plant"),
    name: plantNameSchema,
    tag: plantTagSchema.optional(),
  },
  { error: bodyObjectError("NewPlant") },
).describe("A plant to store. name and tag must not be only whitespace nor contain control characters; lengths count Unicode code points");

export type NewPlant = z.infer<typeof newPlantSchema>;

/**
 * What the API answers for a stored plant: the NewPlant it was made from, id
 * included. Not strict: a client reading an answer ignores fields it does not know.
 */
export const plantSchema = z.object(newPlantSchema.shape).describe("A stored plant");

/** The names of a plant's fields, for matching an error's `details` to a form field. */
export const plantFieldSchema = newPlantSchema.keyof();
export type PlantField = z.infer<typeof plantFieldSchema>;

export type Plant = z.infer<typeof plantSchema>;

/**
 * A change to a stored plant, as a JSON Merge Patch (RFC 7396): a field
 * present replaces the stored one, `"tag": null` removes the tag, a field
 * absent stays as stored. The plant it makes must pass newPlantSchema, as a
 * new plant must (applyPlantPatch). An id, if present, must be the plant's
 * own (the route checks it against the path): ids never change.
 */
export const plantPatchSchema = z
  .strictObject(
    {
      id: plantIdSchema.optional().describe("The plant's own id, if present: an id cannot change"),
      name: plantNameSchema.optional(),
      tag: plantTagSchema.nullable().optional().describe("Tag that specifies the type of the plant; null removes it"),
    },
    { error: bodyObjectError("PlantPatch") },
  )
  .describe("A JSON Merge Patch (RFC 7396) of a plant: the fields to change; null removes the tag. The plant it makes must follow the NewPlant rules");

export type PlantPatch = z.infer<typeof plantPatchSchema>;

/** The plant a patch makes of the stored one (RFC 7396 section 2), for newPlantSchema to judge as it judges a new plant. */
export function applyPlantPatch(stored: Plant, patch: PlantPatch): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...stored };
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) delete merged[field];
    else merged[field] = value;
  }
  return merged;
}

// URL text is not JSON: an id in a path or query is a decimal integer written
// the one canonical way (no sign on zero, no leading zeros, no "+", no
// exponent), so every id has exactly one URL and "007" cannot alias "7".
const CANONICAL_INTEGER = /^(0|-?[1-9][0-9]*)$/;

/** A URL parameter holding one integer; a repeated parameter arrives as an array and is refused. */
function integerText(rule: string) {
  return z
    .string({ error: (issue) => (Array.isArray(issue.input) ? `${rule}, given once` : rule) })
    .regex(CANONICAL_INTEGER, rule);
}

/** An int64 written in a URL, decoded to the exact bigint. */
function int64Text(field: string) {
  return integerText(int64Rule(field))
    .transform((text) => BigInt(text))
    .pipe(int64Schema(field));
}

export const plantPathSchema = z.strictObject({
  id: int64Text("id").describe("Identification number of the plant"),
});

export const PLANT_LIST_LIMIT_DEFAULT = 20;
export const PLANT_LIST_LIMIT_MAX = 100;

const LIMIT_RULE = `limit must be an integer from 1 to ${PLANT_LIST_LIMIT_MAX}`;

/**
 * A filter's text in a URL, bounded as the field it searches is: a value no
 * plant could match (too long, control characters) is a mistake worth a 400,
 * not an empty answer. An empty value is refused too rather than read as "no
 * filter": `tag=` from a blank form field would otherwise widen a search, or
 * a CSV export, to every plant without a word.
 */
function filterText(field: string, max: number, { blankAllowed }: { blankAllowed: boolean }) {
  return z
    .string({ error: (issue) => (Array.isArray(issue.input) ? `${field} must be given once` : `${field} must be a string`) })
    .superRefine((value, ctx) => {
      const problem = textProblem(value, max, { blankAllowed });
      if (!problem) return;
      const hint = value === "" ? `; leave ${field} out to list every plant` : "";
      ctx.addIssue({ code: "custom", message: `${field} ${problem}${hint}` });
    })
    .meta({ minLength: 1, maxLength: max });
}

// What to find (issue 10); the JSON list and the CSV export take the same filters.
const plantFilterShape = {
  tag: filterText("tag", PLANT_TAG_MAX, { blankAllowed: false })
    .optional()
    .describe("Only plants with exactly this tag (case and accents count)"),
  q: filterText("q", PLANT_NAME_MAX, { blankAllowed: true })
    .optional()
    .describe(
      "Only plants whose name contains this text, ignoring case (Unicode lowercase: FERN finds Boston fern, ÉCOLE finds école); " +
        "every character is literal, % and _ included",
    ),
};

const afterSchema = int64Text("after").optional().describe("Answer only plants whose id is greater than this; the Link header's next URL sets it");

function unknownParameters(known: string, explain: (name: string) => string | undefined = () => undefined) {
  return (issue: z.core.$ZodRawIssue) => {
    if (issue.code !== "unrecognized_keys") return undefined;
    const explained = issue.keys.map(explain).find((text) => text !== undefined);
    return explained ?? `unknown query parameter${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.join(", ")}; known: ${known}`;
  };
}

const limitSchema = integerText(LIMIT_RULE)
  .transform(Number)
  .pipe(z.int(LIMIT_RULE).min(1, LIMIT_RULE).max(PLANT_LIST_LIMIT_MAX, LIMIT_RULE).meta({ format: "int32" }))
  .default(PLANT_LIST_LIMIT_DEFAULT);

export const listPlantsQuerySchema = z.strictObject(
  {
    limit: limitSchema.describe("How many plants to answer at most (JSON only: a CSV export answers every matching plant)"),
    after: afterSchema,
    ...plantFilterShape,
  },
  { error: unknownParameters("limit, after, tag, q") },
);

export type ListPlantsQuery = z.infer<typeof listPlantsQuerySchema>;

/** A plant's history (issue 22), newest first, paged as the list is: the Link header's next URL continues before the oldest record answered. */
export const plantHistoryQuerySchema = z.strictObject(
  {
    limit: limitSchema.describe("How many records to answer at most"),
    before: int64Text("before").optional().describe("Answer only records older than the one with this id; the Link header's next URL sets it"),
  },
  { error: unknownParameters("limit, before") },
);

/**
 * The query of a CSV export (GET /plants with Accept: text/csv): the list's
 * filters, every matching plant, no pages. `after` still applies, so an export
 * cut short resumes after the last id it delivered; `limit` is refused rather
 * than ignored, since a client sending it expects fewer rows than it would get.
 */
export const exportPlantsQuerySchema = z.strictObject(
  { after: afterSchema, ...plantFilterShape },
  {
    error: unknownParameters("after, tag, q", (name) =>
      name === "limit" ? "limit does not apply to a CSV export, which answers every matching plant; leave it out (after= resumes an export)" : undefined,
    ),
  },
);

export type ExportPlantsQuery = z.infer<typeof exportPlantsQuerySchema>;

/** Which plants a list, a count or an export is about. */
export type PlantFilter = Pick<ListPlantsQuery, "tag" | "q">;

// The staff form types the id as text so it never passes through a JS number
// (which would round anything above 2^53); it becomes a bigint here and then
// meets the very same int64 rule as the API. An empty tag field means "no tag".
const ID_TEXT = /^-?\d+$/;

export const plantFormSchema = newPlantSchema.extend({
  id: z
    .string()
    .trim()
    .min(1, { error: "id is required", abort: true })
    .regex(ID_TEXT, "id must be a whole number: digits only, with an optional leading minus")
    .transform((text) => BigInt(text))
    .pipe(plantIdSchema),
  tag: z
    .string()
    .transform((text) => (text === "" ? undefined : text))
    .pipe(plantTagSchema.optional()),
});

/** What the form's fields hold: text, before parsing. */
export type PlantFormValues = z.input<typeof plantFormSchema>;

// The change feed (issue 32, GET /plants/events). A position is an int64
// from 0 up: 0 asks for every change kept, from the first.
function positionText(field: string) {
  const rule = `${field} must be a position in the change feed: an integer from 0 to ${INT64_MAX}`;
  return integerText(rule)
    .transform((text) => BigInt(text))
    .pipe(z.bigint().min(0n, rule).max(INT64_MAX, rule));
}

/** The most plants one stream follows by id. */
export const PLANT_EVENTS_IDS_MAX = 100;

export const plantEventsQuerySchema = z.strictObject(
  {
    after: positionText("after")
      .optional()
      .describe("Send every change after this position, then go on live; for clients that cannot send Last-Event-ID, which wins when both are sent"),
    // Given once it arrives as a string, repeated as an array (readQuery): either way a list.
    id: z
      .preprocess((ids) => (typeof ids === "string" ? [ids] : ids), z.array(int64Text("id")).max(PLANT_EVENTS_IDS_MAX, `id may be given at most ${PLANT_EVENTS_IDS_MAX} times`))
      .optional()
      .describe(`Only changes to the plant with this id; repeat it (up to ${PLANT_EVENTS_IDS_MAX} times) to follow several`),
    tag: filterText("tag", PLANT_TAG_MAX, { blankAllowed: false })
      .optional()
      .describe("Only changes to plants with exactly this tag, before or after the change (a plant given another tag is seen leaving)"),
  },
  { error: unknownParameters("after, id, tag") },
);

/** The Last-Event-ID request header (resuming a stream): a position, as ?after= is. */
export const lastEventIdSchema = positionText("Last-Event-ID");
