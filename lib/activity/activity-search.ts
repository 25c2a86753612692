import { z } from "zod";
import { type ActivityPage, toActivityEntry } from "@/lib/activity/history";
import { ACTIVITY_ACTIONS, type ActivityAction } from "@/lib/activity/record";
import { db, type Prisma } from "@/lib/db/client";

// Finding activity records (issue 22): the owners' Activity page, its CSV and
// the `activity` CLI read the same filters through this one schema, from a
// URL's query (`/activity?person=<user id>&action=plant.*&plant=7&from=2026-11-01&to=2026-11-30&before=812`)
// or from the CLI's flags turned into the same names. Newest first, by id
// (the ids count up as rows are written, so a page is stable while new
// changes arrive), a page at a time before the oldest record seen.
//
// The parameter names are a contract: a plant's history links each person to
// /activity?person=<user id>.

export const ACTIVITY_PATH = "/activity";
export const ACTIVITY_EXPORT_PATH = "/activity.csv";

export const ACTIVITY_PAGE_SIZE = 50;

/** Every kind of change of one family ("plant.*": created, updated, deleted, restored). */
export type ActionFamily = `${string}.*`;

/** The families of the known actions, in their order: plant.*, token.*, webhook.* ... */
export const ACTION_FAMILIES: readonly ActionFamily[] = [...new Set(ACTIVITY_ACTIONS.map((action) => `${action.slice(0, action.indexOf("."))}.*` as const))];

/** The actions a family covers. */
export function actionsOf(family: ActionFamily): ActivityAction[] {
  const prefix = family.slice(0, -1);
  return ACTIVITY_ACTIONS.filter((action) => action.startsWith(prefix));
}

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
// One way to write each integer, as the API's URLs do: "007" is no plant id.
const CANONICAL_INTEGER = /^(0|-?[1-9][0-9]*)$/;
// A user id is a UUID today; anything longer, or holding control characters, is no account's.
const PERSON_MAX = 100;
const CONTROL_CHARACTER = /\p{Cc}/u;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * One end of the time range as asked (`text`, kept for the page's links) and
 * as an instant (`at`). `from` starts at its instant, inclusive; `to` ends at
 * its instant, exclusive: a date is a whole day in UTC (from its midnight,
 * to the next one), a date and time is that very millisecond (to includes it).
 */
export type TimeBound = { text: string; at: Date };

/** A date (2026-11-23, a day in UTC) or an RFC 3339 date-time with its offset, as the instant it starts or the instant after it ends; undefined when it is neither. */
export function timeBound(text: string, end: boolean): Date | undefined {
  const date = DATE.exec(text);
  if (date) {
    const [, year, month, day] = date.map(Number) as [number, number, number, number];
    if (!isCalendarDay(year, month, day)) return undefined;
    return new Date(Date.UTC(year, month - 1, day + (end ? 1 : 0)));
  }
  const moment = DATE_TIME.exec(text);
  if (!moment) return undefined;
  const [, year, month, day, hour, minute, second = 0] = moment.slice(0, 7).map(Number) as number[];
  if (!isCalendarDay(year!, month!, day!) || hour! > 23 || minute! > 59 || second > 59) return undefined;
  const at = Date.parse(text.toUpperCase());
  if (Number.isNaN(at)) return undefined;
  return new Date(at + (end ? 1 : 0));
}

function isCalendarDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

// A GET form sends every field, an empty one as `plant=`: that is no filter.
const blankIsAbsent = (value: unknown) => (value === "" ? undefined : value);

/** One query parameter's text; a repeated parameter arrives as an array, and is refused. */
function parameter(field: string) {
  return z.string({ error: (issue) => (Array.isArray(issue.input) ? `${field} must be given once` : `${field} must be text`) });
}

function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess(blankIsAbsent, schema.optional());
}

function int64Parameter(field: string, rule: string, min: bigint) {
  return parameter(field)
    .refine((text) => CANONICAL_INTEGER.test(text) && BigInt(text) >= min && BigInt(text) <= INT64_MAX, `${field} must be ${rule}`)
    .transform((text) => BigInt(text));
}

function timeParameter(field: "from" | "to") {
  const rule = `${field} must be a date (2026-11-23, a day in UTC) or a date and time with its offset (2026-11-23T14:05:00Z)`;
  return parameter(field).transform((text, ctx): TimeBound => {
    const at = timeBound(text, field === "to");
    if (at === undefined) {
      ctx.addIssue({ code: "custom", message: rule });
      return z.NEVER;
    }
    return { text, at };
  });
}

const KNOWN_ACTIONS: readonly string[] = [...ACTIVITY_ACTIONS, ...ACTION_FAMILIES];

/**
 * The filters, by their URL names. Every one is optional; an empty value is
 * no filter; other parameters are ignored (a link may carry more). The
 * messages name the parameter first, as the API's do, for the CLI and the
 * CSV's refusal; the page shows them as sentences.
 */
export const activitySearchSchema = z
  .object({
    person: optional(
      parameter("person").refine((text) => text.length <= PERSON_MAX && !CONTROL_CHARACTER.test(text), "person must be an account's id, as the team page links to it"),
    ),
    action: optional(
      parameter("action").refine(
        (text): text is ActivityAction | ActionFamily => KNOWN_ACTIONS.includes(text),
        `action must be a kind of change or a family of them: ${KNOWN_ACTIONS.join(", ")}`,
      ),
    ),
    plant: optional(int64Parameter("plant", `a plant's id: an integer from ${INT64_MIN} to ${INT64_MAX}`, INT64_MIN)),
    from: optional(timeParameter("from")),
    to: optional(timeParameter("to")),
    before: optional(int64Parameter("before", `a record's id: an integer from 1 to ${INT64_MAX}`, 1n)),
  })
  .superRefine(({ from, to }, ctx) => {
    if (from && to && to.at.getTime() <= from.at.getTime()) ctx.addIssue({ code: "custom", path: ["to"], message: "to must not be before from" });
  });

/** Where a page's stream of new records starts (?after= or Last-Event-ID, lib/live/follow-activity.ts): the newest record's id the page read. */
export function activityPositionSchema(field: "after" | "Last-Event-ID") {
  return int64Parameter(field, `an activity record's id: an integer from 0 to ${INT64_MAX}`, 0n);
}

export type ActivitySearch = z.output<typeof activitySearchSchema>;
export type ActivitySearchField = keyof ActivitySearch;
const SEARCH_FIELDS: readonly ActivitySearchField[] = ["person", "action", "plant", "from", "to", "before"];

/**
 * The filters a query asks for, and each one's mistake (the first). A filter
 * with a mistake is left out of `search`: the caller answers the mistake,
 * never a page of records the person did not ask for.
 */
export function readActivitySearch(params: Record<string, unknown>): { search: ActivitySearch; errors: Partial<Record<ActivitySearchField, string>> } {
  const parsed = activitySearchSchema.safeParse(params);
  if (parsed.success) return { search: parsed.data, errors: {} };
  const errors: Partial<Record<ActivitySearchField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = SEARCH_FIELDS.find((name) => name === issue.path[0]);
    if (field && errors[field] === undefined) errors[field] = issue.message;
  }
  const kept = Object.fromEntries(SEARCH_FIELDS.filter((field) => errors[field] === undefined).map((field) => [field, params[field]]));
  const again = activitySearchSchema.safeParse(kept);
  return { search: again.success ? again.data : {}, errors };
}

/** The query of a search, as the page and the CSV link write it: only the filters given, in one order, so each search has one URL. */
function searchQuery(search: ActivitySearch, { paged }: { paged: boolean }): string {
  const query = new URLSearchParams();
  if (search.person !== undefined) query.set("person", search.person);
  if (search.action !== undefined) query.set("action", search.action);
  if (search.plant !== undefined) query.set("plant", String(search.plant));
  if (search.from !== undefined) query.set("from", search.from.text);
  if (search.to !== undefined) query.set("to", search.to.text);
  if (paged && search.before !== undefined) query.set("before", String(search.before));
  const text = query.toString();
  return text === "" ? "" : `?${text}`;
}

export function activityHref(search: ActivitySearch): string {
  return `${ACTIVITY_PATH}${searchQuery(search, { paged: true })}`;
}

/** The search's filters as a query, without `?` and without its page: what the page's stream of new records is asked for. */
export function activityFilterQuery(search: ActivitySearch): string {
  return searchQuery(search, { paged: false }).slice(1);
}

/** The CSV of every record the search matches, from the newest: no page. */
export function activityExportHref(search: ActivitySearch): string {
  return `${ACTIVITY_PATH}.csv${searchQuery(search, { paged: false })}`;
}

/** Whether a search has a filter (a page before the newest is no filter). */
export function isFiltered({ person, action, plant, from, to }: ActivitySearch): boolean {
  return [person, action, plant, from, to].some((value) => value !== undefined);
}

function activityWhere({ person, action, plant, from, to, before }: ActivitySearch): Prisma.ActivityWhereInput {
  return {
    // Indexed (actor_user_id, id): a person's own changes and their tokens' (a token's record names its person).
    ...(person !== undefined && { actorUserId: person }),
    // Indexed (subject_kind, subject_id, id); a plant's id is kept as its exact decimal.
    ...(plant !== undefined && { subjectKind: "plant", subjectId: String(plant) }),
    ...(action !== undefined && (action.endsWith(".*") ? { action: { in: actionsOf(action as ActionFamily) } } : { action })),
    ...((from !== undefined || to !== undefined) && { occurredAt: { ...(from && { gte: from.at }), ...(to && { lt: to.at }) } }),
    ...(before !== undefined && { id: { lt: before } }),
  };
}

/** What a record is found by, as a page following the record (lib/live/activity-tail.ts) reads it. */
export type SearchedRecord = { action: string; actorUserId: string | null; subjectKind: string; subjectId: string; occurredAt: Date };

/** Whether the search's filters take `record`, as activityWhere's query would: the same filters, in memory. */
export function matchesActivitySearch(record: SearchedRecord, { person, action, plant, from, to }: ActivitySearch): boolean {
  if (person !== undefined && record.actorUserId !== person) return false;
  if (plant !== undefined && (record.subjectKind !== "plant" || record.subjectId !== String(plant))) return false;
  if (action !== undefined && !(action.endsWith(".*") ? (actionsOf(action as ActionFamily) as string[]).includes(record.action) : record.action === action)) return false;
  if (from !== undefined && record.occurredAt.getTime() < from.at.getTime()) return false;
  if (to !== undefined && record.occurredAt.getTime() >= to.at.getTime()) return false;
  return true;
}

/** The records a search matches, newest first: `limit` of them, before the record `search.before` when given. */
export async function searchActivity(search: ActivitySearch, limit = ACTIVITY_PAGE_SIZE): Promise<ActivityPage> {
  const rows = await db().activity.findMany({ where: activityWhere(search), orderBy: { id: "desc" }, take: limit + 1 });
  const entries = rows.slice(0, limit).map(toActivityEntry);
  return { entries, next: rows.length > limit ? entries[entries.length - 1]!.id : null };
}

/**
 * Every record a search matches, newest first, a page of `pageSize` at a
 * time, each read when the consumer asks for it (a CSV, the CLI): never the
 * whole record in memory. Records written meanwhile are newer than the first
 * page and not given; none is given twice.
 */
export async function* activityPages(search: ActivitySearch, pageSize = 500): AsyncGenerator<ActivityPage["entries"]> {
  let before = search.before;
  for (;;) {
    const page = await searchActivity({ ...search, before }, pageSize);
    if (page.entries.length > 0) yield page.entries;
    if (page.next === null) return;
    before = page.next;
  }
}
