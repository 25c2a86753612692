"use client";

import Link from "next/link";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { LocalTime } from "@/components/shared/local-time";
import { NewSinceNotice } from "@/components/shared/new-since-notice";
import { followPlantChanges } from "@/lib/client/change-feed";
import type { PlantChangeEvent } from "@/lib/client/plant-change-event";
import type { Plant } from "@/lib/validations/plant";

/** What the rows follow: the list's filters (the rest of its search decides only what the server reads). */
type Filters = { q?: string; tag?: string };

// The plant list following changes made anywhere (issue 32): nothing moves
// under the person's hand. A row on the page is changed in place, a deleted
// one is marked so where it is, and plants added since the page was read
// are counted ("2 new plants") until the person asks to see them, which reads
// the page again. Focus stays where it was; the count is said once in a
// polite live region.

type Row = Plant & { createdAt: Date };

type Live = {
  /** The rows as the server read them: a new reading of the page (a search, Show them) starts afresh. */
  read: Row[];
  rows: Row[];
  deleted: ReadonlySet<bigint>;
  added: ReadonlySet<bigint>;
};

/** Whether a plant belongs in this search (the list's filters, as the server applies them). */
function matches(plant: Plant, { q, tag }: Filters): boolean {
  if (tag !== undefined && plant.tag !== tag) return false;
  return q === undefined || plant.name.toLowerCase().includes(q.toLowerCase());
}

function apply(live: Live, { type, plant }: PlantChangeEvent, filters: Filters): Live {
  const shown = live.rows.findIndex((row) => row.id === plant.id);
  if (shown !== -1) {
    const rows = live.rows.map((row, index) => (index === shown ? { ...row, name: plant.name, tag: plant.tag } : row));
    const deleted = new Set(live.deleted);
    if (type === "plant.deleted") deleted.add(plant.id);
    else deleted.delete(plant.id);
    return { ...live, rows, deleted };
  }
  const added = new Set(live.added);
  if (type === "plant.created" && matches(plant, filters)) added.add(plant.id);
  else if (type === "plant.deleted") added.delete(plant.id);
  else return live;
  return { ...live, added };
}

/**
 * `head`: the table's caption and header row, rendered on the server
 * (components/plants/plant-list-table.tsx); `position`: the feed position the
 * rows were read at.
 */
export function LivePlantList({ plants, filters, position, head }: { plants: Row[]; filters: Filters; position: string; head: ReactNode }) {
  const [live, setLive] = useState<Live>({ read: plants, rows: plants, deleted: new Set(), added: new Set() });
  const table = useRef<HTMLTableElement>(null);
  // The server read the page again (Show them, another search or page): its rows, followed from its position.
  if (live.read !== plants) setLive({ read: plants, rows: plants, deleted: new Set(), added: new Set() });

  const { q, tag } = filters;
  useEffect(() => followPlantChanges({ after: position, onChange: (change) => setLive((current) => (current.read === plants ? apply(current, change, { q, tag }) : current)) }), [position, q, tag, plants]);

  return (
    <>
      <NewSinceNotice count={live.added.size} noun={["plant", "plants"]} onShown={() => table.current?.focus()} />
      {live.rows.length > 0 && (
        // Focusable from script only: "Show them" takes the person here once the new rows are in.
        <table className="plant-list" role="table" ref={table} tabIndex={-1}>
          {head}
          <tbody role="rowgroup">
            {live.rows.map((plant) => (
              <PlantRow key={plant.id.toString()} plant={plant} deleted={live.deleted.has(plant.id)} />
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** One plant, linking to its own page; one deleted since the page was read stays where it was, marked. */
function PlantRow({ plant, deleted }: { plant: Row; deleted: boolean }) {
  const id = plant.id.toString();
  return (
    <tr role="row" className={deleted ? "deleted" : undefined}>
      <td role="cell" data-label="Id" className="id">
        {id}
      </td>
      <th scope="row" role="rowheader" className="plant-name">
        {/* No prefetch: a page of rows would ask the server for twenty plant pages nobody opened. */}
        <Link href={`/plants/${id}`} prefetch={false}>
          {plant.name}
        </Link>
        {deleted && <span className="deleted-mark"> (deleted)</span>}
      </th>
      <td role="cell" data-label="Tag">
        {plant.tag ?? (
          <>
            <span aria-hidden="true">–</span>
            <span className="visually-hidden">no tag</span>
          </>
        )}
      </td>
      <td role="cell" data-label="Added">
        <LocalTime date={plant.createdAt} />
      </td>
    </tr>
  );
}
