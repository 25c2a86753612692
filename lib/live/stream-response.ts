import type { Caller } from "@/lib/auth/sessions/caller";
import { ApiError } from "@/lib/http/api-error";
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from "@/lib/http/error-catalogue";
import { type AccessDemand, watchAccess } from "@/lib/live/access-watch";
import { type EventStream, eventStream, type Feed, HEARTBEAT_MS, type Positioned, STALL_BEATS } from "@/lib/live/event-stream";
import { takeStreamPlace } from "@/lib/live/stream-limits";
import { clientAddress } from "@/lib/server/client-address";
import { env } from "@/lib/server/env";
import { lifecycle } from "@/lib/server/lifecycle";
import { log } from "@/lib/server/log";
import { metrics } from "@/lib/server/metrics";

// The answer that holds an event stream open (issue 32), for the API's change
// feed and the staff pages' activity stream alike: the caller's place within
// the stream limits, its access watched for as long as the stream is open,
// and the headers that keep proxies from holding the events back.

export const EVENT_STREAM_MEDIA_TYPE = "text/event-stream";

const STREAM_HEADERS = {
  "content-type": `${EVENT_STREAM_MEDIA_TYPE}; charset=utf-8`,
  // no-transform: compression (Next's own, a proxy's) would hold events back until the stream ends.
  "cache-control": "no-store, no-transform",
  // nginx buffers a proxied answer unless told not to.
  "x-accel-buffering": "no",
};

// How long a cut stream's connection took nothing, in the log's words: from the stall rule itself, so the two never drift apart.
const STALLED_REASON = `its connection took nothing for at least ${(STALL_BEATS * HEARTBEAT_MS) / 1000} s while events waited`;

/** Throws 503 while the process stops: a stream opened now would hold it open until its deadline. */
export function refuseWhileStopping(): void {
  if (lifecycle().shuttingDown) {
    throw new ApiError("ServiceUnavailable", "this server is shutting down; connect again, and another process will answer", {
      headers: { "retry-after": String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    });
  }
}

export type StreamRequest<Item extends Positioned> = {
  /** Which stream it is, in the metrics and the log: GET /plants/events or GET /activity/events. */
  feedName: "plants" | "activity";
  request: Request;
  requestId: string;
  caller: Caller;
  /** What the caller was let in by: checked again while the stream is open. */
  access: AccessDemand;
  feed: Feed<Item>;
  /** Items after this position are sent. */
  start: bigint;
  accepts(item: Item): boolean;
  frame(item: Item): string;
};

/** The stream's answer (HEAD: its headers alone); throws 429 past the limits. */
export function streamResponse<Item extends Positioned>({ feedName, request, requestId, caller, access, feed, start, accepts, frame }: StreamRequest<Item>): Response {
  if (request.method === "HEAD") return new Response(null, { headers: STREAM_HEADERS });
  const { streamsPerCaller, streamsPerAddress } = env().changeFeed;
  const callerKey = caller.kind === "token" ? `token:${caller.token.id}` : `staff:${caller.user.id}`;
  const givePlaceBack = takeStreamPlace(callerKey, clientAddress(request), { perCaller: streamsPerCaller, perAddress: streamsPerAddress });
  // Watched before the stream exists: one that ends at once (its client already gone) stops the watch too.
  const ending: { stream?: EventStream } = {};
  const stopWatching = watchAccess(request, access, () => ending.stream?.end("access"));
  const { eventStreamsOpen, eventStreamsEnded } = metrics();
  eventStreamsOpen.inc({ feed: feedName });
  const stream = eventStream(feed, {
    start,
    accepts,
    frame,
    signal: request.signal,
    onEnd: (reason) => {
      givePlaceBack();
      stopWatching();
      eventStreamsOpen.dec({ feed: feedName });
      eventStreamsEnded.inc({ feed: feedName, reason });
      // The one end an operator may need to look into: a client, or a proxy before it, that stopped reading.
      if (reason === "stalled") log.warn("an event stream was cut", { requestId, feed: feedName, reason: STALLED_REASON });
    },
  });
  ending.stream = stream;
  return new Response(stream.body, { headers: STREAM_HEADERS });
}
