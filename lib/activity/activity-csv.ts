import { type ActivitySearch, activityPages } from "@/lib/activity/activity-search";
import { actorText, changesText, describeAction, describeSubject, nameActor } from "@/lib/activity/describe";
import type { ActivityEntry } from "@/lib/activity/history";
import { stringifyExactJson } from "@/lib/json/exact-json";
import { guardCsvText } from "@/lib/plants/csv-cells";

// The Activity page's records as CSV (RFC 4180), newest first: each record's
// facts for a program (ids, kinds, exact JSON of the fields before and after)
// and the same words the page shows for a person (lib/activity/describe.ts).
// Every text cell goes through the export's rule against spreadsheet formulas
// (lib/plants/csv-cells.ts): a person named "=HYPERLINK(...)", a token label
// or a User-Agent starting with "@" is text in a spreadsheet, never a
// formula. Ids and times are written as they are.

export const ACTIVITY_CSV_HEADER =
  "id,at,action,what,who,by_kind,by_user_id,by_token_id,client_address,user_agent,request_id,subject_kind,subject_id,subject,changes,before,after,restored_from\r\n";

const NEEDS_QUOTES = /[",\r\n]/;

function field(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function textCell(text: string | null | undefined): string {
  return text == null ? "" : field(guardCsvText(text));
}

function jsonCell(value: Record<string, unknown> | undefined): string {
  return value === undefined ? "" : textCell(stringifyExactJson(value));
}

/** The CSV records of `entries`; `names`: accounts' names by id, for a token's person and an account a record is about. */
export function activityCsvRecords(entries: readonly ActivityEntry[], names: ReadonlyMap<string, string>): string {
  let text = "";
  for (const entry of entries) {
    const { actor, origin, changes } = entry;
    const cells = [
      String(entry.id),
      entry.occurredAt.toISOString(),
      textCell(entry.action),
      textCell(describeAction(entry.action)),
      textCell(actorText(nameActor(actor, names))),
      textCell(actor.kind),
      textCell(actor.userId),
      textCell(actor.tokenId),
      textCell(origin.clientAddress),
      textCell(origin.userAgent),
      textCell(origin.requestId),
      textCell(entry.subjectKind),
      // A plant's id is a number, written as it is (-5 stays -5); other subjects' ids are text.
      entry.subjectKind === "plant" ? field(entry.subjectId) : textCell(entry.subjectId),
      textCell(describeSubject(entry, names)),
      textCell(changesText(entry)),
      jsonCell(changes.before),
      jsonCell(changes.after),
      changes.restoredFrom === undefined ? "" : String(changes.restoredFrom),
    ];
    text += `${cells.join(",")}\r\n`;
  }
  return text;
}

/**
 * Every record the search matches as CSV text, one chunk per page read. The
 * first chunk is the header with the first page, so a database that fails at
 * once fails before anything is sent (lib/http/csv-response.ts).
 */
export async function* activityCsv(search: ActivitySearch, names: ReadonlyMap<string, string>, pageSize = 500): AsyncGenerator<string> {
  let header = ACTIVITY_CSV_HEADER;
  for await (const entries of activityPages(search, pageSize)) {
    yield header + activityCsvRecords(entries, names);
    header = "";
  }
  if (header) yield header;
}

/** The name a download is saved under: what it holds and the day it was made ("activity-plant-7-2026-11-23.csv"). */
export function activityCsvFileName(search: ActivitySearch, now: Date): string {
  const plant = search.plant === undefined ? "" : `-plant-${search.plant}`;
  return `activity${plant}-${now.toISOString().slice(0, 10)}.csv`;
}
