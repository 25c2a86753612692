import type { ActorKind } from "@/lib/activity/actor";
import type { ActivityAction, Changes, SubjectKind } from "@/lib/activity/record";
import { db } from "@/lib/db/client";
import { parseExactJson } from "@/lib/json/exact-json";

// Reading the activity record back: a subject's history, newest first, in
// pages that continue before the oldest entry seen (the ids count up as rows
// are written, so a page is stable while new changes arrive).

export type ActivityEntry = {
  id: bigint;
  occurredAt: Date;
  action: ActivityAction;
  actor: { kind: ActorKind; userId: string | null; tokenId: string | null; name: string };
  origin: { clientAddress: string | null; userAgent: string | null; requestId: string | null };
  subjectKind: SubjectKind;
  subjectId: string;
  changes: Changes;
};

export type ActivityPage = { entries: ActivityEntry[]; /** The id to continue before, when there are older entries. */ next: bigint | null };

type Row = Awaited<ReturnType<ReturnType<typeof db>["activity"]["findMany"]>>[number];

/** A row of the activity table as the app reads it. */
export function toActivityEntry(row: Row): ActivityEntry {
  return {
    id: row.id,
    occurredAt: row.occurredAt,
    action: row.action as ActivityAction,
    actor: { kind: row.actorKind as ActorKind, userId: row.actorUserId, tokenId: row.actorTokenId, name: row.actorName },
    origin: { clientAddress: row.clientAddress, userAgent: row.userAgent, requestId: row.requestId },
    subjectKind: row.subjectKind as SubjectKind,
    subjectId: row.subjectId,
    // Written by recordActivity as exact JSON: ids above 2^53 come back as bigints.
    changes: parseExactJson(row.changes) as Changes,
  };
}

/** A subject's records, newest first: `limit` of them, before the entry with id `before` when given. */
export async function subjectHistory(subjectKind: SubjectKind, subjectId: string, { limit, before }: { limit: number; before?: bigint }): Promise<ActivityPage> {
  const rows = await db().activity.findMany({
    where: { subjectKind, subjectId, ...(before !== undefined && { id: { lt: before } }) },
    orderBy: { id: "desc" },
    take: limit + 1,
  });
  const entries = rows.slice(0, limit).map(toActivityEntry);
  return { entries, next: rows.length > limit ? entries[entries.length - 1]!.id : null };
}

/** A plant's history, newest first; a deleted plant's too (it ends with the delete). */
export function plantHistory(id: bigint, page: { limit: number; before?: bigint }): Promise<ActivityPage> {
  return subjectHistory("plant", String(id), page);
}
