import { PLANT_BATCH_MAX_BYTES } from "@/lib/validations/plant-batch";

// How much of a request body the API reads: the body readers enforce it and
// the error catalogue (hence the OpenAPI document) states it.

export const MAX_BODY_BYTES = 16 * 1024;

// A 413 sent while the client is still uploading breaks its connection: Node's
// own client then loses the answer or the next request on that keep-alive
// socket. Reading and discarding up to this much lets the client read the 413
// and reuse the connection; past it, the connection is closed instead.
export const MAX_DISCARD_BYTES = 1024 * 1024;

// A batch's limit is lib/validations/plant-batch.ts's, so the staff import can
// hold a file to it in the browser before sending it.
export const MAX_BATCH_BODY_BYTES = PLANT_BATCH_MAX_BYTES;

/** What one operation reads: at most maxBytes kept, and past that up to discardBytes read and dropped before the 413. */
export type BodyLimit = { maxBytes: number; discardBytes: number };

export const PLANT_BODY_LIMIT: BodyLimit = { maxBytes: MAX_BODY_BYTES, discardBytes: MAX_DISCARD_BYTES };
export const BATCH_BODY_LIMIT: BodyLimit = { maxBytes: MAX_BATCH_BODY_BYTES, discardBytes: MAX_BATCH_BODY_BYTES + MAX_DISCARD_BYTES };
