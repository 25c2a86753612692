"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { followActivity } from "@/lib/client/activity-feed";

// The Activity page following the record (issue 32): records written since the
// page was read, that its filters take, are counted ("3 new records") until
// the owner asks to see them, which reads the page again; nothing moves under
// their hand meanwhile. The count is said once in a polite live region; once
// the new records are in, focus goes to them.

/**
 * `after`: the newest record's id the page read; `query`: its filters, as its
 * URL has them; `focusId`: the element holding the records.
 */
export function LiveActivityNotice({ after, query, focusId }: { after: string; query: string; focusId: string }) {
  const router = useRouter();
  const [read, setRead] = useState(after);
  const [added, setAdded] = useState<ReadonlySet<string>>(new Set());
  const [showing, startShowing] = useTransition();
  const shown = useRef(false);
  // The server read the page again (Show them, another search): counted afresh from its newest record.
  if (read !== after) {
    setRead(after);
    setAdded(new Set());
  }

  useEffect(
    () => followActivity({ after, query: new URLSearchParams(query), onRecorded: ({ id }) => setAdded((current) => new Set(current).add(id)) }),
    [after, query],
  );
  useEffect(() => {
    if (showing || !shown.current) return;
    shown.current = false;
    document.getElementById(focusId)?.focus();
  }, [showing, focusId]);

  const count = added.size;
  return (
    <div className="live-notice">
      <p role="status">{count > 0 ? `${count} new ${count === 1 ? "record" : "records"} since this page was read.` : ""}</p>
      {count > 0 && (
        <button
          type="button"
          disabled={showing}
          onClick={() => {
            shown.current = true;
            startShowing(() => router.refresh());
          }}
        >
          Show {count === 1 ? "it" : "them"}
        </button>
      )}
    </div>
  );
}
