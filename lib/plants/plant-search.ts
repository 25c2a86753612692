import { type DirectQuery, directQuery } from "@/lib/db/direct-reads";
import { containsIgnoringCase, ignoringCaseOrder } from "@/lib/db/text-match";
import type { PlantFilter } from "@/lib/validations/plant";

// The SQL behind finding plants (GET /plants?tag=&q=&after=, its count and its
// CSV export), in id order so cursor (keyset) paging works alike for all. A
// tag is matched by the index on (tag, id), which also gives its plants in id
// order; a text in the name is a scan, as substring search is without a
// trigram index. Each shape of search has one SQL text, so the direct reads
// prepare and keep at most a handful of statements.

export type PlantSearch = PlantFilter & { after?: bigint };

type Values = (string | bigint | number)[];

/** SQL that differs between the engines, or one text for both. */
type EngineSql = string | { sqlite: string; postgres: string };

const NAME_CONTAINS = containsIgnoringCase(`"name"`);

const queries = new Map<string, DirectQuery>();

function search({ tag, q, after }: PlantSearch, select: string, tail: EngineSql): { query: DirectQuery; values: Values } {
  const conditions: { sqlite: string; postgres: string }[] = [];
  const values: Values = [];
  if (tag !== undefined) {
    conditions.push({ sqlite: `"tag" = ?`, postgres: `"tag" = ?` });
    values.push(tag);
  }
  if (q !== undefined) {
    conditions.push(NAME_CONTAINS);
    values.push(q);
  }
  if (after !== undefined) {
    conditions.push({ sqlite: `"id" > ?`, postgres: `"id" > ?` });
    values.push(after);
  }
  const tails = typeof tail === "string" ? { sqlite: tail, postgres: tail } : tail;
  const key = `${select}|${tag !== undefined}|${q !== undefined}|${after !== undefined}|${tails.sqlite}|${tails.postgres}`;
  let query = queries.get(key);
  if (!query) {
    const sql = (engine: "sqlite" | "postgres") => {
      const where = conditions.length === 0 ? "" : ` WHERE ${conditions.map((condition) => condition[engine]).join(" AND ")}`;
      return `SELECT ${select} FROM "plants"${where}${tails[engine]}`;
    };
    query = directQuery(sql("sqlite"), sql("postgres"));
    queries.set(key, query);
  }
  return { query, values };
}

/** Up to `limit` matching plants after the cursor, in id order. */
export function plantPageQuery(found: PlantSearch, limit: number): { query: DirectQuery; values: Values } {
  const { query, values } = search(found, `"id", "name", "tag"`, ` ORDER BY "id" LIMIT ?`);
  return { query, values: [...values, limit] };
}

/** How many plants match the filter (a cursor does not narrow a count). */
export function plantCountQuery(filter: PlantFilter): { query: DirectQuery; values: Values } {
  return search({ tag: filter.tag, q: filter.q }, `count(*) AS "count"`, "");
}

// The staff list (issue 11): the same filters, in the order a person picks,
// a numbered page at a time (OFFSET), so that every page is a plain link and
// "page 2 of 3" means something. Offset paging reads the rows it skips; for
// a store's thousands of plants that is cheap, and the API keeps its keyset
// paging for programs that read everything.

/** What the staff list can be ordered by; ties are broken by the id, so no plant shows on two pages. */
export type PlantOrder = { by: "added" | "id" | "name"; descending: boolean };

const NAME_ORDER = ignoringCaseOrder(`"name"`);

const ORDER_KEYS: Record<PlantOrder["by"], { sqlite: string[]; postgres: string[] }> = {
  added: { sqlite: [`"created_at"`, `"id"`], postgres: [`"created_at"`, `"id"`] },
  id: { sqlite: [`"id"`], postgres: [`"id"`] },
  name: { sqlite: [...NAME_ORDER.sqlite, `"id"`], postgres: [...NAME_ORDER.postgres, `"id"`] },
};

function orderBy({ by, descending }: PlantOrder): { sqlite: string; postgres: string } {
  const direction = descending ? " DESC" : "";
  const clause = (keys: string[]) => ` ORDER BY ${keys.map((key) => `${key}${direction}`).join(", ")} LIMIT ? OFFSET ?`;
  return { sqlite: clause(ORDER_KEYS[by].sqlite), postgres: clause(ORDER_KEYS[by].postgres) };
}

/** Up to `limit` matching plants in the given order, after skipping `offset` of them, with when each was added. */
export function plantListQuery(filter: PlantFilter, order: PlantOrder, { offset, limit }: { offset: number; limit: number }): { query: DirectQuery; values: Values } {
  const { query, values } = search({ tag: filter.tag, q: filter.q }, `"id", "name", "tag", "created_at"`, orderBy(order));
  return { query, values: [...values, limit, offset] };
}

const TAG_ORDER = ignoringCaseOrder(`"tag"`);

/** The distinct tags in use, ignoring case in their order, at most `limit` of them (suggestions for the tag filter). */
export const TAGS_IN_USE = directQuery(
  `SELECT "tag" FROM "plants" WHERE "tag" IS NOT NULL GROUP BY "tag" ORDER BY ${TAG_ORDER.sqlite.join(", ")} LIMIT ?`,
  `SELECT "tag" FROM "plants" WHERE "tag" IS NOT NULL GROUP BY "tag" ORDER BY ${TAG_ORDER.postgres.join(", ")} LIMIT ?`,
);
