import type { Metadata } from "next";
import Link from "next/link";
import { type ActivityActionGroup, ActivityFilterForm, type ActivityFilterFields } from "@/components/activity/activity-filter-form";
import { type ActivityRow, ActivityTable } from "@/components/activity/activity-table";
import { LiveActivityNotice } from "@/components/activity/live-activity-notice";
import { activityPeople, unknownPerson } from "@/lib/activity/activity-people";
import {
  ACTION_FAMILIES,
  actionsOf,
  activityExportHref,
  activityFilterQuery,
  activityHref,
  type ActivitySearch,
  type ActivitySearchField,
  isFiltered,
  readActivitySearch,
  searchActivity,
} from "@/lib/activity/activity-search";
import { describeAction, describeEntry, describeFamily, describeSubject } from "@/lib/activity/describe";
import type { ActivityEntry, ActivityPage } from "@/lib/activity/history";
import { freePlantIds } from "@/lib/activity/restore-plant";
import { requireOwner } from "@/lib/auth/sessions/require-staff";
import { newestActivityPosition } from "@/lib/live/activity-reads";
import { sentence } from "@/lib/validations/sentence";

export const metadata: Metadata = { title: "Activity · Plant Store" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const FILTER_FIELDS = ["person", "action", "plant", "from", "to"] as const;

const RECORDS_ID = "activity-records";

/**
 * Owners only (issue 22): every change made in the store, newest first, who
 * made it and what it changed, found by person, kind of change, plant and
 * time, all of it in the URL; a deleted plant can be restored from its record.
 */
export default async function ActivityPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const { search, errors } = readActivitySearch(params);
  await requireOwner(activityHref(search));
  const people = await activityPeople();
  const personMistake = errors.person ?? unknownPerson(search, people.names);
  const mistakes: Partial<Record<ActivitySearchField, string>> = { ...errors, ...(personMistake && { person: personMistake }) };
  const mistaken = Object.keys(mistakes).length > 0;
  // Read before the records: whatever is written meanwhile is counted as new, never missed.
  const position = await newestActivityPosition();
  const found = mistaken ? undefined : await searchActivity(search);
  const raw = (field: (typeof FILTER_FIELDS)[number]) => (typeof params[field] === "string" ? params[field] : "");
  const fields = Object.fromEntries(FILTER_FIELDS.map((field) => [field, raw(field)])) as ActivityFilterFields;
  return (
    <>
      <h1>Activity</h1>
      <p>
        Every change made in Plant Store, newest first: who made it (a person, one of their API tokens, the app itself or an operator at the CLI), when,
        and what it changed. A deleted plant can be restored from here, exactly as it was.
      </p>
      <ActivityFilterForm
        fields={fields}
        errors={Object.fromEntries(FILTER_FIELDS.filter((field) => mistakes[field]).map((field) => [field, sentence(mistakes[field]!)]))}
        people={people.accounts.map((account) => ({ value: account.id, label: `${account.name} (${account.email})` }))}
        actionGroups={ACTION_GROUPS}
      />
      {/* One live region whatever the outcome, so that each new search's count is announced. */}
      <p className="match-count" role="status">
        {found ? countText(found, search) : "Correct the filters to see records."}
      </p>
      {mistakes.before && <p className="form-error">{sentence(mistakes.before)}</p>}
      {/* The newest records follow the record as it grows; an older page stays as it was read. */}
      {found && search.before === undefined && <LiveActivityNotice after={position} query={activityFilterQuery(search)} focusId={RECORDS_ID} />}
      {/* Focusable from script only: "Show them" takes the owner here once the new records are in. */}
      <div id={RECORDS_ID} tabIndex={-1}>
        {found && <Results found={found} search={search} names={people.names} />}
      </div>
    </>
  );
}

/** The kinds of change by family, each family first as a whole ("Any change to plants"). */
const ACTION_GROUPS: ActivityActionGroup[] = ACTION_FAMILIES.map((family) => {
  const about = describeFamily(family);
  return {
    label: capitalised(about),
    options: [{ value: family, label: `Any change to ${about}` }, ...actionsOf(family).map((action) => ({ value: action, label: capitalised(describeAction(action)) }))],
  };
});

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function countText({ entries, next }: ActivityPage, search: ActivitySearch): string {
  if (entries.length === 0) return search.before === undefined ? (isFiltered(search) ? "No record matches these filters." : "No activity yet.") : "No older records.";
  const older = search.before === undefined ? "" : "older ";
  const records = `${entries.length} ${older}${entries.length === 1 ? "record" : "records"}`;
  return `${records}${isFiltered(search) ? " matching these filters" : ""}, newest first${next === null ? "" : "; more on the next page"}.`;
}

async function Results({ found, search, names }: { found: ActivityPage; search: ActivitySearch; names: ReadonlyMap<string, string> }) {
  const { entries, next } = found;
  if (entries.length === 0) {
    return search.before === undefined ? null : (
      <p>
        <Link href={activityHref({ ...search, before: undefined })}>Back to the newest records</Link>
      </p>
    );
  }
  const free = await freePlantIds(entries.filter((entry) => entry.action === "plant.deleted").map((entry) => BigInt(entry.subjectId)));
  return (
    <>
      <ActivityTable rows={entries.map((entry) => toRow(entry, names, free))} />
      {(search.before !== undefined || next !== null) && (
        <nav aria-label="Pages" className="pager">
          {search.before !== undefined && <Link href={activityHref({ ...search, before: undefined })}>Newest records</Link>}
          {next !== null && (
            <Link href={activityHref({ ...search, before: next })} rel="next">
              Older records
            </Link>
          )}
        </nav>
      )}
      <p className="export">
        {/* A link rather than a fetch: the browser streams the file to disk, whatever its size. */}
        <a href={activityExportHref(search)}>Download {isFiltered(search) ? "every matching record" : "all activity"} as CSV</a>
      </p>
    </>
  );
}

/** Where a record's subject has a page: a plant's (a deleted one's says it is gone), a webhook endpoint's. */
function subjectHref({ subjectKind, subjectId }: ActivityEntry): string | undefined {
  if (subjectKind === "plant") return `/plants/${subjectId}`;
  if (subjectKind === "webhook") return `/webhooks/${encodeURIComponent(subjectId)}`;
  return undefined;
}

function toRow(entry: ActivityEntry, names: ReadonlyMap<string, string>, free: ReadonlySet<bigint>): ActivityRow {
  const { changes } = entry;
  const { who, what, changes: fields } = describeEntry(entry, names);
  const href = subjectHref(entry);
  const before = changes.before as { name?: unknown } | undefined;
  return {
    id: String(entry.id),
    at: entry.occurredAt,
    who,
    from: entry.origin.clientAddress,
    what: capitalised(what),
    subject: { text: capitalised(describeSubject(entry, names)), ...(href && { href }) },
    changes: fields,
    kept: changes.after === undefined && changes.before !== undefined,
    ...(changes.restoredFrom !== undefined && { restoredFrom: String(changes.restoredFrom) }),
    ...(entry.action === "plant.deleted" && {
      restore: { plantId: entry.subjectId, name: typeof before?.name === "string" ? before.name : entry.subjectId, restorable: free.has(BigInt(entry.subjectId)) },
    }),
  };
}
