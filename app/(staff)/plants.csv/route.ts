import { randomUUID } from "node:crypto";
import type { NextRequest } from "next/server";
import { requireStaff } from "@/lib/auth/sessions/require-staff";
import { isOwnNavigation } from "@/lib/auth/same-origin";
import { csvResponse } from "@/lib/http/csv-response";
import { plantExportFileName } from "@/lib/plants/export-file-name";
import { plantCsv } from "@/lib/plants/plant-csv";
import { plantListHref, readPlantListSearch } from "@/lib/validations/plant-list";

export const dynamic = "force-dynamic";

// The staff list's "Download as CSV": the API's CSV export (GET /plants with
// Accept: text/csv, the very same rows) behind a URL a plain link can open.
// A link cannot send Accept, and fetching the file in script would hold it
// whole in the page's memory before saving; a download the browser follows
// itself streams to disk, works without JavaScript, and can be opened in a
// new tab or saved with the browser's own menu.
export async function GET(request: NextRequest) {
  const params: Record<string, string | string[]> = {};
  for (const name of new Set(request.nextUrl.searchParams.keys())) {
    const values = request.nextUrl.searchParams.getAll(name);
    params[name] = values.length === 1 ? values[0]! : values;
  }
  const { search, errors } = readPlantListSearch(params);
  // Signed out: to sign-in, then back to the list this download belongs to.
  await requireStaff(plantListHref(search));
  if (!isOwnNavigation(request)) return plainText(403, "Download the plants from Plant Store's own list.");
  const mistake = errors.q ?? errors.tag;
  if (mistake) return plainText(400, `The search is not valid: ${mistake}.`);
  const filter = { q: search.q, tag: search.tag };
  return csvResponse(request.method === "HEAD" ? null : plantCsv(filter), { filename: plantExportFileName(filter, new Date()), requestId: randomUUID() });
}

function plainText(status: number, message: string): Response {
  return new Response(`${message}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}
