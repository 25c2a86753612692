"use client";

import { useSearchParams } from "next/navigation";
import type { ReactNode } from "react";
import { readHistoryBefore } from "@/lib/validations/plant-history-page";

// A plant's history is rendered on the server a page at a time, for the page
// the address asks for (?historyBefore=). Whatever the client router does
// while the next page is on its way (a slow connection, a payload still
// streaming, an address updated first), the rows one page shows never stand
// under another page's address (issue 31): until the two agree, the history
// says it is loading.

/** The address's query as the server page reads it: a name given twice is a list. */
function queryOf(search: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(search.keys())) {
    const values = search.getAll(name);
    query[name] = values.length === 1 ? values[0]! : values;
  }
  return query;
}

/** Shows `children`, the history's page before the record `before` (none: the newest), only while the address asks for that page. */
export function HistoryRowsFor({ before, children }: { before: string | undefined; children: ReactNode }) {
  const asked = readHistoryBefore(queryOf(useSearchParams())).before;
  if (asked?.toString() !== before) return <p role="status">Loading the changes this address asks for…</p>;
  return children;
}
