import { randomUUID } from "node:crypto";
import type { NextRequest } from "next/server";
import { activityCsv, activityCsvFileName } from "@/lib/activity/activity-csv";
import { activityPeople, unknownPerson } from "@/lib/activity/activity-people";
import { activityHref, readActivitySearch } from "@/lib/activity/activity-search";
import { requireOwner } from "@/lib/auth/sessions/require-staff";
import { isOwnNavigation } from "@/lib/auth/same-origin";
import { csvResponse } from "@/lib/http/csv-response";
import { readQuery } from "@/lib/http/query-params";

export const dynamic = "force-dynamic";

// The Activity page's "Download as CSV" (issue 22): every record its filters
// match, newest first, streamed a page at a time (lib/activity/activity-csv.ts).
// Owners only, checked here as on the page: staff meet a 404.
export async function GET(request: NextRequest) {
  const { search, errors } = readActivitySearch(readQuery(request));
  // Signed out: to sign-in, then back to the page this download belongs to.
  await requireOwner(activityHref(search));
  if (!isOwnNavigation(request)) return plainText(403, "Download the activity from Plant Store's own Activity page.");
  const people = await activityPeople();
  const mistake = Object.values(errors)[0] ?? unknownPerson(search, people.names);
  if (mistake) return plainText(400, `The filters are not valid: ${mistake}.`);
  const chunks = request.method === "HEAD" ? null : activityCsv(search, people.names);
  return csvResponse(chunks, { filename: activityCsvFileName(search, new Date()), requestId: randomUUID() });
}

function plainText(status: number, message: string): Response {
  return new Response(`${message}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}
