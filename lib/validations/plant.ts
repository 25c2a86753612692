import { z } from "zod";

// The one schema for a new plant, used by the API route and the staff form.
// It imports only zod so it is safe to ship to the browser.

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

export const PLANT_NAME_MAX = 200;
export const PLANT_TAG_MAX = 50;

const ID_RULE = `id must be an integer from ${INT64_MIN} to ${INT64_MAX}`;

/** An int64, exact: JSON bodies are parsed so that integers arrive as bigint. */
export const plantIdSchema = z
  .bigint({ error: (issue) => (issue.input === undefined ? "id is required" : ID_RULE) })
  .min(INT64_MIN, ID_RULE)
  .max(INT64_MAX, ID_RULE);

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
);

export type NewPlant = z.infer<typeof newPlantSchema>;

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
