import type pg from "pg";
import { postgresPool } from "@/lib/db/postgres";

// PostgreSQL's plant writes (a create's group commit, a change, a delete:
// each one statement, its activity record in it) on the process's pool
// itself, rather than through Prisma: measured under load (issue 33), the
// database stage of a create cost 0.27 ms of CPU, most of it Prisma's, and
// its garbage a good part of the rest. The Prisma adapter uses the same pool.

/** A statement as Prisma.sql builds it: its PostgreSQL text ($1, $2 ...) and values. */
export type PostgresStatement = { text: string; values: unknown[] };

/**
 * Runs one statement outside any transaction (it commits alone); answers its
 * rows as pg reads them (int8 as text, so no id is rounded). Never tried
 * again: a write that met a broken connection may have committed, and the
 * caller is told so (lib/http/error-response.ts, "lost").
 */
export async function writeOnPool<Row>(url: string, { text, values }: PostgresStatement): Promise<Row[]> {
  const config: pg.QueryConfig = { text, values: values.map(postgresValue) };
  return (await postgresPool(url).query(config)).rows as Row[];
}

/**
 * A value bound as Prisma's adapter binds it: a bigint as its digits, a Date
 * as UTC text without a zone (the columns are timestamp without time zone,
 * and Prisma keeps UTC in them).
 */
function postgresValue(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Date) return value.toISOString().replace("T", " ").replace("Z", "");
  return value;
}
