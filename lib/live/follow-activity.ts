import { type ActivitySearch, matchesActivitySearch } from "@/lib/activity/activity-search";
import type { Caller } from "@/lib/auth/sessions/caller";
import { ApiError } from "@/lib/http/api-error";
import { isOwner } from "@/lib/live/access-watch";
import { type ActivityNote, newestActivityPosition } from "@/lib/live/activity-reads";
import { activityTail } from "@/lib/live/activity-tail";
import { eventFrame } from "@/lib/live/event-stream";
import { refuseWhileStopping, streamResponse } from "@/lib/live/stream-response";

// GET /activity/events (issue 32): what the owners' Activity and Team pages
// follow. Each new activity record their filters take is sent as
// `activity.recorded` with its id and its kind of change, nothing more: the
// page counts them ("3 new records") or reads itself again, through its own
// access checks. Owners only, signed in to the app, as the pages are; an
// owner made staff, or signed out, has the stream ended within a second.

/** The event's type. */
export const ACTIVITY_RECORDED = "activity.recorded";

export type FollowActivityRequest = {
  request: Request;
  /** The request's id, for the log line of a stream cut. */
  requestId: string;
  caller: Caller;
  /** The newest record the page read (?after= or Last-Event-ID); undefined for now. */
  after: bigint | undefined;
  search: ActivitySearch;
};

/** Throws 404 to anyone but an owner signed in to the app: as the pages answer staff, and API tokens meet no page. */
export function requireOwnerCaller(caller: Caller): void {
  if (!isOwner(caller)) throw new ApiError("NotFound", "there is no activity stream for this caller: it follows the store's activity for its owners' pages, signed in");
}

export async function followActivity({ request, requestId, caller, after, search }: FollowActivityRequest): Promise<Response> {
  requireOwnerCaller(caller);
  refuseWhileStopping();
  const feed = await activityTail();
  // A page's position may be past the reader's (it reads on its next wake): the stream passes over what the page has.
  // One past the newest record is from before a restore of an older backup: that stream starts at the newest.
  const newest = BigInt(await newestActivityPosition());
  const start = after === undefined || after > newest ? newest : after;
  return streamResponse({
    feedName: "activity",
    request,
    requestId,
    caller,
    access: { scope: "plants:read", owner: true },
    feed,
    start,
    accepts: (note) => matchesActivitySearch(note, search),
    frame: activityFrame,
  });
}

function activityFrame(note: ActivityNote): string {
  return eventFrame(note.position, ACTIVITY_RECORDED, JSON.stringify({ id: String(note.position), action: note.action }));
}
