import { z } from "zod";
import { plantIdSchema } from "@/lib/validations/plant";

// What GET /plants/{id}/history answers (issue 22): a plant's activity
// records, newest first. The schema is the OpenAPI document's; the answer is
// made from the record by lib/activity/plant-history.ts.

export const PLANT_ACTIONS = ["plant.created", "plant.updated", "plant.deleted", "plant.restored"] as const;

// The fields a record names: only those that changed; a created or restored plant's "after", a deleted plant's "before", whole.
const plantFieldsSchema = z
  .object({
    id: plantIdSchema.optional(),
    name: z.string().optional(),
    tag: z.string().nullable().optional().describe("null: the plant had no tag"),
  })
  .describe("The plant's fields: all of them for a plant created, restored or deleted; for a change, only those it changed");

export const plantActivitySchema = z
  .object({
    id: z.bigint().describe("The record's id: a later record has a greater one").meta({ format: "int64" }),
    at: z.string().describe("When the change was committed: an RFC 3339 date-time in UTC, to the millisecond"),
    action: z.enum(PLANT_ACTIONS),
    by: z
      .object({
        kind: z.enum(["person", "token", "app", "cli"]).describe("A person in the staff app, an API token, the app itself, or an operator at the CLI"),
        name: z.string().describe("The person's name, the token's label, or the operator's OS user (empty when unknown), as they were then"),
        userId: z.string().nullable().describe("The person's account, or the account the token belongs to"),
        tokenId: z.string().nullable(),
      })
      .describe("Who made the change"),
    requestId: z.string().nullable().describe("The X-Request-Id of the request that made it, which leads to its log line"),
    before: plantFieldsSchema.optional(),
    after: plantFieldsSchema.optional(),
  })
  .describe("One change to a plant, as the activity record keeps it");

export type PlantActivity = z.output<typeof plantActivitySchema>;
