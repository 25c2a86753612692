import ms from "ms";
import type { Caller } from "@/lib/auth/sessions/caller";
import { ApiError } from "@/lib/http/api-error";
import { keptPositions } from "@/lib/live/change-reads";
import { changeTail } from "@/lib/live/change-tail";
import { eventFrame } from "@/lib/live/event-stream";
import { type ChangeFilter, matchesFilter, type PlantChange } from "@/lib/live/plant-change";
import { refuseWhileStopping, streamResponse } from "@/lib/live/stream-response";
import { env } from "@/lib/server/env";

// GET /plants/events (issue 32): a caller's stream of changes, from where it
// asks to resume (or from now), for as long as its credentials hold.

export type FollowRequest = {
  request: Request;
  /** The request's id, for the log line of a stream cut. */
  requestId: string;
  caller: Caller;
  /** The position to resume after (Last-Event-ID or ?after=), or undefined for now. */
  after: bigint | undefined;
  filter: ChangeFilter;
};

/** The stream's answer; throws 410 for a position it cannot resume from, 429 past the limits. */
export async function followChanges({ request, requestId, caller, after, filter }: FollowRequest): Promise<Response> {
  refuseWhileStopping();
  const feed = await changeTail();
  const start = await startPosition(after);
  return streamResponse({
    feedName: "plants",
    request,
    requestId,
    caller,
    access: { scope: "plants:read" },
    feed,
    start,
    accepts: (change) => matchesFilter(change, filter),
    frame: changeFrame,
  });
}

/** A change's event: its position, its type, and the webhooks' body for it. */
function changeFrame(change: PlantChange): string {
  return eventFrame(change.position, change.type, change.body);
}
/** Where the stream starts: after the position asked for, if every change after it is kept; else after the newest. */
async function startPosition(after: bigint | undefined): Promise<bigint> {
  const kept = await keptPositions();
  if (after === undefined) return kept?.newest ?? 0n;
  const newest = kept?.newest ?? 0n;
  if (after > newest) {
    throw new ApiError(
      "Gone",
      `position ${after} is past the newest change, ${newest}: it is not from this store's change feed (another store's, or one restored from an older backup); re-read the plants with GET /plants, then follow from now`,
    );
  }
  // Positions have no gaps: every change after `after` is kept exactly when the oldest kept is at most after + 1.
  if (kept && after + 1n < kept.oldest) {
    const retention = env().changeFeed.retentionMs;
    const keptFor = retention === null ? "" : ` (changes are kept for ${ms(retention, { long: true })}: CHANGE_FEED_RETENTION)`;
    throw new ApiError(
      "Gone",
      `position ${after} is older than the oldest change kept, ${kept.oldest}${keptFor}; re-read the plants with GET /plants, then follow from now`,
    );
  }
  return after;
}
