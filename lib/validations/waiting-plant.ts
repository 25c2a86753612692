import { z } from "zod";
import { plantFieldSchema } from "@/lib/validations/plant";

// A plant the staff form kept in the browser because it could not be sent
// (no connection, the server down, the session ended), until it is sent
// (lib/client/offline/send-waiting-plants.ts). What a browser kept may have
// been written by an older version of the app, so it is read back through
// this schema, and a record it refuses is left alone rather than sent.

const ID_TEXT = /^-?\d+$/;

/** Why the app refused a waiting plant when it was sent (400, 409): it waits for the person to fix or discard it. */
export const waitingPlantProblemSchema = z.object({
  status: z.int(),
  fieldErrors: z.array(z.object({ field: plantFieldSchema, message: z.string() })),
  formError: z.string().optional(),
});

export const waitingPlantSchema = z.object({
  /** IndexedDB's auto-increment key: the order plants were added in, the order they are sent in. */
  seq: z.int().positive(),
  /** The NewPlant as typed; the id as its exact decimal text, never a JS number. */
  plant: z.object({ id: z.string().regex(ID_TEXT), name: z.string(), tag: z.string().optional() }),
  /** When it was kept (epoch milliseconds). */
  keptAt: z.number(),
  problem: waitingPlantProblemSchema.optional(),
});

export type WaitingPlant = z.infer<typeof waitingPlantSchema>;
export type WaitingPlantProblem = z.infer<typeof waitingPlantProblemSchema>;

/**
 * What the app's pages and its service worker tell each other about the
 * waiting plants (a BroadcastChannel): the list changed, or a round of
 * sending ended, and how (lib/client/offline/send-waiting-plants.ts).
 */
export const waitingPlantsNewsSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("changed") }),
  z.object({
    kind: z.literal("sent"),
    /** The seqs of the plants stored this time, so that a page can tell the person which of theirs were (issue 20). */
    sent: z.array(z.int().positive()),
    refused: z.int().nonnegative(),
    stopped: z.enum(["unreachable", "signed out", "server"]).optional(),
  }),
]);

export type WaitingPlantsNews = z.infer<typeof waitingPlantsNewsSchema>;
