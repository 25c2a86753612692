import Link from "next/link";
import { type ActorShown, ActorName } from "@/components/activity/actor-name";
import { CardTable } from "@/components/shared/card-table";
import { type FieldChangeShown, FieldChanges } from "@/components/activity/field-changes";
import { LocalTime } from "@/components/shared/local-time";
import { HistoryRowsFor } from "@/components/plants/plant-history-rows-for";
import { plantHistoryHref } from "@/lib/validations/plant-history-page";

// A plant's history on its page (issue 22): its changes newest first, each
// with when, who, what was done and the fields old → new, a page at a time.
// Rendered on the server: after a save the page refreshes (router.refresh in
// components/plants/plant-editor.tsx) and the new change is on top.

/** A change as shown (lib/activity/describe.ts describeEntry). */
export type PlantHistoryEntry = { id: bigint; at: Date; who: ActorShown; what: string; changes: FieldChangeShown[] };

type PlantHistoryProps = {
  plantId: bigint;
  entries: readonly PlantHistoryEntry[];
  /** The record the next page of older changes continues before, if there are any. */
  next: bigint | null;
  /** Owners: each person's name leads to their activity (a page staff cannot open). */
  linkToActivity: boolean;
  /** The record this page continues before; undefined on the newest page. */
  before?: bigint;
  /** The URL asked for a page before something that is no record id: this is the newest page instead. */
  mistakenBefore?: boolean;
  /** The history parameter as the address the page was rendered for wrote it (historyPageAsked). */
  renderedFor: string | undefined;
};

export function PlantHistory({ plantId, entries, next, linkToActivity, before, mistakenBefore = false, renderedFor }: PlantHistoryProps) {
  return (
    <section id="plant-history" aria-labelledby="plant-history-title">
      <h2 id="plant-history-title">History</h2>
      <HistoryRowsFor renderedFor={renderedFor}>
        {mistakenBefore && <p>The address asked for older changes in a way this page does not understand: these are the newest.</p>}
        {entries.length === 0 ? (
          <p>{before === undefined ? "No changes to this plant are on record." : "There are no older changes."}</p>
        ) : (
          <CardTable
            labelledBy="plant-history-title"
            rowHeader={{ header: "When", cell: (entry) => <LocalTime date={entry.at} /> }}
            columns={[
              { header: "Who", cell: (entry) => <ActorName actor={entry.who} linkToActivity={linkToActivity} />, breakAnywhere: true },
              { header: "What", cell: (entry) => entry.what },
              // The plant's id is this page's own: only what else it had or changed.
              { header: "Values", cell: (entry) => <FieldChanges changes={entry.changes.filter((change) => change.field !== "id")} />, breakAnywhere: true },
            ]}
            rows={entries}
            rowKey={(entry) => entry.id.toString()}
          />
        )}
        <HistoryPager plantId={plantId} next={next} paged={before !== undefined} />
      </HistoryRowsFor>
    </section>
  );
}

function HistoryPager({ plantId, next, paged }: { plantId: bigint; next: bigint | null; paged: boolean }) {
  if (next === null && !paged) return null;
  return (
    <nav aria-label="History pages" className="pager">
      {paged && <Link href={plantHistoryHref(plantId)}>Newest changes</Link>}
      {next !== null && (
        <Link href={plantHistoryHref(plantId, next)} rel="next">
          Older changes
        </Link>
      )}
    </nav>
  );
}
