import { operations } from "@/lib/api/operations";
import { ApiError } from "@/lib/http/api-error";
import { apiRoute } from "@/lib/http/api-route";
import { negotiateMediaType } from "@/lib/http/content-negotiation";
import { parseInput } from "@/lib/http/parse-input";
import { readQuery } from "@/lib/http/query-params";
import { followChanges } from "@/lib/live/follow-changes";
import { EVENT_STREAM_MEDIA_TYPE } from "@/lib/live/stream-response";
import { lastEventIdSchema, plantEventsQuerySchema } from "@/lib/validations/plant";

// GET /plants/events, the route handler's body: app/plants/events/route.ts
// declares it to Next.js, and the production server serves it on its own
// sockets (lib/server/direct-streams.ts), past Next's per-request machinery.
// The change feed (issue 32): Server-Sent Events, resumable by Last-Event-ID or ?after=.
export const followPlantChangesRoute = apiRoute(operations.followPlantChanges, async ({ request, requestId, caller }) => {
  if (negotiateMediaType(request.headers.get("accept"), [EVENT_STREAM_MEDIA_TYPE]) === undefined) {
    throw new ApiError("NotAcceptable", "the change feed is answered only as text/event-stream, which Accept does not allow");
  }
  const query = parseInput(plantEventsQuerySchema, readQuery(request), "(query)");
  const lastEventId = request.headers.get("last-event-id");
  // A reconnecting EventSource sends Last-Event-ID with the URL it first opened: the header is the newer word.
  const after = lastEventId === null ? query.after : parseInput(lastEventIdSchema, lastEventId.trim(), "Last-Event-ID");
  return followChanges({ request, requestId, caller, after, filter: { ids: query.id, tag: query.tag } });
});
