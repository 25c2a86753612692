import { EventEmitter } from "node:events";
import { processGlobal } from "@/lib/server/process-global";

// A nudge to this process's change feed (lib/live/change-tail.ts): plants were
// just committed here, so their changes are in the table (written by the
// database, in the change's transaction) and the open streams need not wait
// for another process's word or the feed's next look. Called by whatever
// writes plants, after the commit.

function signal(): EventEmitter {
  return processGlobal("live.signal", () => new EventEmitter());
}

export function announcePlantChanges(): void {
  signal().emit("changed");
}

/** Calls `listener` on each nudge; answers the function that stops it. */
export function onPlantChangesAnnounced(listener: () => void): () => void {
  signal().on("changed", listener);
  return () => signal().off("changed", listener);
}
