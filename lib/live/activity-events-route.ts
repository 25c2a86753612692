import { activityPositionSchema, activitySearchSchema } from "@/lib/activity/activity-search";
import { ApiError } from "@/lib/http/api-error";
import { apiRoute } from "@/lib/http/api-route";
import { negotiateMediaType } from "@/lib/http/content-negotiation";
import { parseInput } from "@/lib/http/parse-input";
import { readQuery } from "@/lib/http/query-params";
import { followActivity, requireOwnerCaller } from "@/lib/live/follow-activity";
import { EVENT_STREAM_MEDIA_TYPE } from "@/lib/live/stream-response";

// GET /activity/events, what the owners' Activity and Team pages follow (issue 32): the new activity
// records their filters take, as Server-Sent Events. The staff app's, not the
// API's: it is in no OpenAPI document, and answers only an owner's session.
// Declared to Next.js by app/(staff)/activity/events/route.ts, and served by the
// production server on its own sockets (lib/server/direct-streams.ts).
export const followActivityRoute = apiRoute({ operation: "followActivity", scope: "plants:read" }, async ({ request, requestId, caller }) => {
  requireOwnerCaller(caller);
  if (negotiateMediaType(request.headers.get("accept"), [EVENT_STREAM_MEDIA_TYPE]) === undefined) {
    throw new ApiError("NotAcceptable", "the activity stream is answered only as text/event-stream, which Accept does not allow");
  }
  const { after, ...params } = readQuery(request);
  const search = parseInput(activitySearchSchema, params, "(query)");
  const lastEventId = request.headers.get("last-event-id");
  const position =
    lastEventId !== null
      ? parseInput(activityPositionSchema("Last-Event-ID"), lastEventId.trim(), "Last-Event-ID")
      : after === undefined
        ? undefined
        : parseInput(activityPositionSchema("after"), after, "after");
  return followActivity({ request, requestId, caller, after: position, search });
});
