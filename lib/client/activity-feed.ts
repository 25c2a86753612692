import { followEventSource } from "@/lib/client/event-source";

// The owners' Activity and Team pages following the activity record (issue
// 32): GET /activity/events through lib/client/event-source.ts. Each event
// names a new record the page's filters take, by its id and its kind of change
// (lib/live/follow-activity.ts writes them): ids are strings, so JSON.parse
// keeps them exact.

const ACTIVITY_RECORDED = "activity.recorded";

export type RecordedActivity = { id: string; action: string };

export type FollowActivityOptions = {
  /** The newest record's id the page read. */
  after: string;
  /** The page's filters, as its URL has them. */
  query?: URLSearchParams;
  onRecorded(record: RecordedActivity): void;
};

export function followActivity({ after, query, onRecorded }: FollowActivityOptions): () => void {
  return followEventSource({
    path: "/activity/events",
    after,
    query,
    types: [ACTIVITY_RECORDED],
    onEvent(_type, _id, data) {
      const record = readRecord(data);
      if (record) onRecorded(record);
    },
  });
}

function readRecord(data: string): RecordedActivity | undefined {
  try {
    const { id, action } = JSON.parse(data) as Partial<RecordedActivity>;
    return typeof id === "string" && typeof action === "string" ? { id, action } : undefined;
  } catch {
    return undefined;
  }
}
