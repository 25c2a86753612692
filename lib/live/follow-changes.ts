import ms from "ms";
import type { Caller } from "@/lib/auth/sessions/caller";
import { ApiError } from "@/lib/http/api-error";
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from "@/lib/http/error-catalogue";
import { watchAccess } from "@/lib/live/access-watch";
import { keptPositions } from "@/lib/live/change-reads";
import { changeTail } from "@/lib/live/change-tail";
import { type ChangeStream, changeStream } from "@/lib/live/event-stream";
import type { ChangeFilter } from "@/lib/live/plant-change";
import { takeStreamPlace } from "@/lib/live/stream-limits";
import { clientAddress } from "@/lib/server/client-address";
import { env } from "@/lib/server/env";
import { lifecycle } from "@/lib/server/lifecycle";

// GET /plants/events (issue 32): a caller's stream of changes, from where it
// asks to resume (or from now), for as long as its credentials hold.

export const EVENT_STREAM_MEDIA_TYPE = "text/event-stream";

const STREAM_HEADERS = {
  "content-type": `${EVENT_STREAM_MEDIA_TYPE}; charset=utf-8`,
  // no-transform: compression (Next's own, a proxy's) would hold events back until the stream ends.
  "cache-control": "no-store, no-transform",
  // nginx buffers a proxied answer unless told not to.
  "x-accel-buffering": "no",
};

export type FollowRequest = {
  request: Request;
  caller: Caller;
  /** The position to resume after (Last-Event-ID or ?after=), or undefined for now. */
  after: bigint | undefined;
  filter: ChangeFilter;
};

/** The stream's answer; throws 410 for a position it cannot resume from, 429 past the limits. */
export async function followChanges({ request, caller, after, filter }: FollowRequest): Promise<Response> {
  // A stream opened now would hold the stopping server open until its deadline.
  if (lifecycle().shuttingDown) {
    throw new ApiError("ServiceUnavailable", "this server is shutting down; connect again, and another process will answer", { headers: { "retry-after": String(UNAVAILABLE_RETRY_AFTER_SECONDS) } });
  }
  const tail = await changeTail();
  const start = await startPosition(after);
  if (request.method === "HEAD") return new Response(null, { headers: STREAM_HEADERS });
  const { streamsPerCaller, streamsPerAddress } = env().changeFeed;
  const callerKey = caller.kind === "token" ? `token:${caller.token.id}` : `staff:${caller.user.id}`;
  const givePlaceBack = takeStreamPlace(callerKey, clientAddress(request), { perCaller: streamsPerCaller, perAddress: streamsPerAddress });
  // Watched before the stream exists: one that ends at once (its client already gone) stops the watch too.
  const ending: { stream?: ChangeStream } = {};
  const stopWatching = watchAccess(request, "plants:read", () => ending.stream?.end());
  const stream = changeStream(tail, {
    start,
    filter,
    signal: request.signal,
    onEnd: () => {
      givePlaceBack();
      stopWatching();
    },
  });
  ending.stream = stream;
  return new Response(stream.body, { headers: STREAM_HEADERS });
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
