import { followActivityRoute } from "@/lib/live/activity-events-route";

export const dynamic = "force-dynamic";

// The owners' stream of new activity records (issue 32). `npm start` answers it
// itself (lib/server/direct-streams.ts); `next dev` through here.
export const GET = followActivityRoute;
