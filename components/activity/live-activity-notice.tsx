"use client";

import { useEffect, useState } from "react";
import { NewSinceNotice } from "@/components/shared/new-since-notice";
import { followActivity } from "@/lib/client/activity-feed";

// The Activity page following the record (issue 32): records written since the
// page was read, that its filters take, are counted ("3 new records") until
// the owner asks to see them, which reads the page again; nothing moves under
// their hand meanwhile. Once the new records are in, focus goes to them.

/**
 * `after`: the newest record's id the page read; `query`: its filters, as its
 * URL has them; `focusId`: the element holding the records.
 */
export function LiveActivityNotice({ after, query, focusId }: { after: string; query: string; focusId: string }) {
  const [read, setRead] = useState(after);
  const [added, setAdded] = useState<ReadonlySet<string>>(new Set());
  // The server read the page again (Show them, another search): counted afresh from its newest record.
  if (read !== after) {
    setRead(after);
    setAdded(new Set());
  }

  useEffect(
    () => followActivity({ after, query: new URLSearchParams(query), onRecorded: ({ id }) => setAdded((current) => new Set(current).add(id)) }),
    [after, query],
  );

  return <NewSinceNotice count={added.size} noun={["record", "records"]} onShown={() => document.getElementById(focusId)?.focus()} />;
}
