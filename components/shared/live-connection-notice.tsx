"use client";

import { useEffect, useState, useSyncExternalStore } from "react";
import { type LiveConnection, liveConnection, subscribeLiveConnection } from "@/lib/client/live-connection";

// What every staff page says when it cannot follow the store's changes (issue
// 44): once its stream has been reconnecting for a few seconds, that live
// updates are paused; once it follows again, that they resumed, for a while;
// and, when it cannot catch up at all, that it must be reloaded. Said once
// each, politely, in a live region that is there, empty, before it speaks,
// at the top of the page and kept in view while the page scrolls (the staff
// layout holds it, so a page that follows nothing never speaks).

/** How long "resumed" stays before the notice goes. */
const RESUMED_SHOWN_MS = 6_000;

type Shown = "nothing" | "paused" | "resumed" | "stopped";

const SAID: Record<Shown, string> = {
  nothing: "",
  paused: "Live updates paused: reconnecting… Changes made meanwhile will appear once the connection is back.",
  resumed: "Live updates resumed: this page shows changes again as they happen.",
  stopped: "Live updates stopped: this page can no longer catch up with the changes made since it was read. Reload it to see them.",
};

export function LiveConnectionNotice() {
  const connection = useSyncExternalStore(subscribeLiveConnection, liveConnection, () => "idle" as const);
  const [shown, setShown] = useState<Shown>("nothing");
  const next = nextShown(shown, connection);
  if (next !== shown) setShown(next);
  useEffect(() => {
    if (shown !== "resumed") return;
    const going = setTimeout(() => setShown("nothing"), RESUMED_SHOWN_MS);
    return () => clearTimeout(going);
  }, [shown]);

  return (
    <div className="live-connection" data-state={shown}>
      {/* A polite live region of its own, not role="status": that is the page's own news ("Saved …"), one per page. */}
      <p aria-live="polite" aria-atomic="true">
        {SAID[shown]}
      </p>
      {shown === "stopped" && (
        <button type="button" onClick={() => window.location.reload()}>
          Reload the page
        </button>
      )}
    </div>
  );
}

/** What the notice says next, from what it says now and how the page stands. */
function nextShown(shown: Shown, connection: LiveConnection): Shown {
  if (connection === "paused" || connection === "stopped") return connection;
  // Following again after it said it was paused: "resumed", until it goes. A page that stopped following
  // (its streams closed: another page opened in its place) says nothing of it.
  if (shown === "paused") return connection === "following" ? "resumed" : "nothing";
  if (shown === "stopped") return "nothing";
  return shown;
}
