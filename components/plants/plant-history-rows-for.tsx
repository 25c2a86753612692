"use client";

import { useSearchParams } from "next/navigation";
import type { ReactNode } from "react";
import { HISTORY_BEFORE_PARAM, historyPageAsked } from "@/lib/validations/plant-history-param";

// A plant's history is rendered on the server a page at a time, for the page
// the address asks for (?historyBefore=). Whatever the client router does
// while the next page is on its way (a slow connection, a payload still
// streaming, an address updated first), the rows one page shows never stand
// under another page's address (issue 31): until the two agree, the history
// says it is loading. The parameter is compared as written, as the server
// read it, so no parser is sent to the browser for it.

/** Shows `children`, the history's page rendered for the parameter as written `renderedFor`, only while the address asks for that page. */
export function HistoryRowsFor({ renderedFor, children }: { renderedFor: string | undefined; children: ReactNode }) {
  const asked = historyPageAsked(useSearchParams().getAll(HISTORY_BEFORE_PARAM));
  if (asked !== renderedFor) return <p role="status">Loading the changes this address asks for…</p>;
  return children;
}
