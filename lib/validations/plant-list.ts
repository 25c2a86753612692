import { z } from "zod";
import { listPlantsQuerySchema } from "@/lib/validations/plant";
import { DEFAULT_PLANT_SORT, PLANT_SORTS } from "@/lib/validations/plant-list-url";

// The staff list's URL (issue 11): what to find, in which order, which page:
// `/?q=fern&tag=tropical&sort=name&page=2`. Read here, written by
// plantListHref, so a search is a plain link: shareable, kept on reload, and
// made by a GET form without JavaScript. Browser-safe (only zod); what the
// browser needs without validating (the orders, the links) is in
// lib/validations/plant-list-url.ts, re-exported here.

export { DEFAULT_PLANT_SORT, PLANT_EXPORT_PATH, PLANT_SORT_LABELS, PLANT_SORTS, plantExportHref, plantListHref, type PlantSort } from "@/lib/validations/plant-list-url";

// Beyond any store's plants at 20 a page; a longer number is no page.
const PAGE_NUMBER = /^[1-9][0-9]{0,6}$/;

// A GET form sends every field, an empty one as `q=`: here that means no
// filter (the API refuses it instead, so that a script's empty value never
// widens to every plant; a person clearing a field means exactly that).
const blankIsAbsent = (value: unknown) => (value === "" ? undefined : value);

// The name's search text as a person means it: "fern " typed finds the ferns
// (issue 20). A substring trimmed finds every name the untrimmed one found,
// and more, so nothing is lost; only spaces is no filter, as an empty field is.
// The API's q stays literal (a program means its spaces). The tag is not
// trimmed: the list matches it exactly, and a stored tag may end in a space.
const trimmedOrAbsent = (value: unknown) => (typeof value === "string" ? blankIsAbsent(value.trim()) : value);

/**
 * The list's query. q and tag follow the API's rules (the same words in a
 * message, the same matching); a sort or page no link makes falls back to the
 * default rather than failing the page. Other parameters are ignored.
 */
export const plantListSearchSchema = z.object({
  q: z.preprocess(trimmedOrAbsent, listPlantsQuerySchema.shape.q),
  tag: z.preprocess(blankIsAbsent, listPlantsQuerySchema.shape.tag),
  sort: z.enum(PLANT_SORTS).catch(DEFAULT_PLANT_SORT),
  page: z.string().regex(PAGE_NUMBER).transform(Number).catch(1),
});

export type PlantListSearch = z.output<typeof plantListSearchSchema>;

/** The filters' fields, which may hold a mistake worth showing (the sort and page cannot). */
export type PlantListFilterField = "q" | "tag";

/**
 * The search a URL asks for, and each filter's mistake. A filter with a
 * mistake is left out of `search` (its message is for the field showing it).
 */
export function readPlantListSearch(params: Record<string, string | string[] | undefined>): {
  search: PlantListSearch;
  errors: Partial<Record<PlantListFilterField, string>>;
} {
  const parsed = plantListSearchSchema.safeParse(params);
  if (parsed.success) return { search: parsed.data, errors: {} };
  const errors: Partial<Record<PlantListFilterField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === "q" || field === "tag") && errors[field] === undefined) errors[field] = issue.message;
  }
  const { q, tag, ...rest } = params;
  const kept = { ...rest, ...(errors.q === undefined && { q }), ...(errors.tag === undefined && { tag }) };
  return { search: plantListSearchSchema.parse(kept), errors };
}
