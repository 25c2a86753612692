import { otherMethods } from "@/lib/http/api-route";
import { followPlantChangesRoute } from "@/lib/live/plant-events-route";

export const dynamic = "force-dynamic";

// The change feed (issue 32): Server-Sent Events, resumable by Last-Event-ID or ?after=.
// `npm start` answers GET and HEAD itself (lib/server/direct-streams.ts); `next dev` through here.
export const GET = followPlantChangesRoute;

export const { PUT, POST, PATCH, DELETE, OPTIONS } = otherMethods("/plants/events");
