import { z } from "zod";

// The one schema for a new plant, used by the API route and the staff form.
// It imports only zod so it is safe to ship to the browser.

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

export const PLANT_NAME_MAX = 200;
export const PLANT_TAG_MAX = 50;

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

/** What is wrong with a text value, or undefined; lengths count Unicode code points, as JSON Schema does. */
function textProblem(value: string, max: number): string | undefined {
  if (!value.isWellFormed()) return "must be valid Unicode (it has an unpaired surrogate)";
  if (CONTROL_CHARACTER.test(value)) return "must not contain control characters";
  const length = [...value].length;
  if (length === 0) return "must not be empty";
  if (length > max) return `must be at most ${max} characters (got ${length})`;
  if (value.trim() === "") return "must not be only whitespace";
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

export const newPlantSchema = z.strictObject(
  {
    id: plantIdSchema.describe("Identification number of the plant"),
    name: plantNameSchema,
    tag: plantTagSchema.optional(),
  },
  {
    error: (issue) => {
      if (issue.code === "unrecognized_keys") return `unknown field${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.join(", ")}`;
      if (issue.code === "invalid_type") return "the body must be a JSON object (a NewPlant)";
      return undefined;
    },
  },
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

export const listPlantsQuerySchema = z.strictObject(
  {
    limit: integerText(LIMIT_RULE)
      .transform(Number)
      .pipe(z.int(LIMIT_RULE).min(1, LIMIT_RULE).max(PLANT_LIST_LIMIT_MAX, LIMIT_RULE).meta({ format: "int32" }))
      .default(PLANT_LIST_LIMIT_DEFAULT)
      .describe("How many plants to answer at most"),
    after: int64Text("after")
      .optional()
      .describe("Answer only plants whose id is greater than this; the Link header's next URL sets it"),
  },
  {
    error: (issue) => {
      if (issue.code === "unrecognized_keys") {
        return `unknown query parameter${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.join(", ")}; known: limit, after`;
      }
      return undefined;
    },
  },
);

export type ListPlantsQuery = z.infer<typeof listPlantsQuerySchema>;

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
