import Link from "next/link";
import { PLANT_SORT_LABELS, plantListHref, type PlantListSearch, type PlantSort } from "@/lib/validations/plant-list";

type Column = { field: "id" | "name" | "added"; label: string; first: PlantSort; second: PlantSort };

// A header's link sorts by its column, its first way (newest, lowest, A to Z); when already so, the other way.
const SORTABLE: Record<Column["field"], Column> = {
  id: { field: "id", label: "Id", first: "id", second: "-id" },
  name: { field: "name", label: "Name", first: "name", second: "-name" },
  added: { field: "added", label: "Added", first: "-added", second: "added" },
};

/**
 * The caption and header row of the plants of one page (the rows are
 * components/plants/live-plant-list.tsx's, which follows changes): rendered
 * on the server, so the list's URLs and sort labels cost the browser no
 * script. A table with its roles spelled out: below 40rem the CSS draws each
 * row as a card (so nothing is wider than a phone and a 20-character id shows
 * whole), and a table's display changed by CSS loses its semantics in some
 * browsers unless they are explicit. There the header row is kept for screen
 * readers only, without its sort links: a link in a row nobody sees would
 * take keyboard focus out of sight (WCAG 2.4.7; issue 20). The search form's
 * Sort field sorts instead.
 */
export function PlantListHead({ search }: { search: PlantListSearch }) {
  return (
    <>
      <caption>Plants, {PLANT_SORT_LABELS[search.sort].toLowerCase()}</caption>
      <thead role="rowgroup">
        <tr role="row">
          <SortableHeader column={SORTABLE.id} search={search} />
          <SortableHeader column={SORTABLE.name} search={search} />
          <th scope="col" role="columnheader">
            Tag
          </th>
          <SortableHeader column={SORTABLE.added} search={search} />
        </tr>
      </thead>
    </>
  );
}

function SortableHeader({ column, search }: { column: Column; search: PlantListSearch }) {
  const direction = search.sort === column.first ? column.first : search.sort === column.second ? column.second : undefined;
  const next = direction === column.first ? column.second : column.first;
  const ariaSort = direction === undefined ? undefined : direction.startsWith("-") ? "descending" : "ascending";
  return (
    <th scope="col" role="columnheader" aria-sort={ariaSort}>
      <Link className="sort-link" href={plantListHref({ q: search.q, tag: search.tag, sort: next })} title={`Sort: ${PLANT_SORT_LABELS[next].toLowerCase()}`}>
        {column.label}
        {ariaSort && <span aria-hidden="true">{ariaSort === "ascending" ? " ▲" : " ▼"}</span>}
      </Link>
      {/* In place of the link where the header row is not drawn (app/globals.css): the header still names its column. */}
      <span className="column-name">{column.label}</span>
    </th>
  );
}
