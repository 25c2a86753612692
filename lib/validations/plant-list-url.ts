import type { PlantListSearch } from "@/lib/validations/plant-list";

// The staff list's orders and links (lib/validations/plant-list.ts reads
// them back from a URL). Apart from the schema so that the search form and
// the list's links load no zod with the page (issue 20).

/** The orders the list offers: a field, descending when it starts with "-" (as JSON:API's sort parameter). */
export const PLANT_SORTS = ["-added", "added", "id", "-id", "name", "-name"] as const;
export type PlantSort = (typeof PLANT_SORTS)[number];
export const DEFAULT_PLANT_SORT: PlantSort = "-added";

export const PLANT_SORT_LABELS: Record<PlantSort, string> = {
  "-added": "Newest first",
  added: "Oldest first",
  id: "Id, lowest first",
  "-id": "Id, highest first",
  name: "Name, A to Z",
  "-name": "Name, Z to A",
};

/** The list's URL for a search: defaults left out, so each search has one URL. */
export function plantListHref({ q, tag, sort = DEFAULT_PLANT_SORT, page = 1 }: Partial<PlantListSearch>): string {
  const query = new URLSearchParams();
  if (q !== undefined) query.set("q", q);
  if (tag !== undefined) query.set("tag", tag);
  if (sort !== DEFAULT_PLANT_SORT) query.set("sort", sort);
  if (page !== 1) query.set("page", String(page));
  const text = query.toString();
  return text === "" ? "/" : `/?${text}`;
}

/** Where the staff download the list's plants as CSV: the same filters (app/(staff)/plants.csv/route.ts). */
export const PLANT_EXPORT_PATH = "/plants.csv";

export function plantExportHref({ q, tag }: Pick<PlantListSearch, "q" | "tag">): string {
  const query = new URLSearchParams();
  if (q !== undefined) query.set("q", q);
  if (tag !== undefined) query.set("tag", tag);
  const text = query.toString();
  return text === "" ? PLANT_EXPORT_PATH : `${PLANT_EXPORT_PATH}?${text}`;
}
