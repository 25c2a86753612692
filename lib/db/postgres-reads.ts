import pg from "pg";
import { againAfterOutage } from "@/lib/db/database-outage";
import type { DirectRow, Reader } from "@/lib/db/direct-reads";
import { postgresPool } from "@/lib/db/postgres";

// The hot reads (lib/db/direct-reads.ts) on PostgreSQL: named prepared
// statements on the process's pool, the Prisma adapter's too.

// PostgreSQL's type id for timestamp (without time zone), Prisma's DateTime.
const TIMESTAMP_OID = 1114;

/**
 * Prisma keeps DateTime as UTC in timestamp columns, whatever the session's
 * time zone; pg would read them in the process's own zone. Read as UTC, a
 * time is the one Prisma reads, and the one a write binds back meets the stored value.
 */
const UTC_TIMESTAMPS = {
  getTypeParser: (oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP_OID ? (text: string) => new Date(`${text.replace(" ", "T")}Z`) : pg.types.getTypeParser(oid, format),
} as pg.CustomTypesConfig;

/** The direct reads on the pool of the database at `url`. */
export function postgresReader(url: string): Reader {
  const pool = postgresPool(url);
  const read = (config: pg.QueryConfig) => pool.query<DirectRow>(config);
  return {
    async all(query, values) {
      // int8 arrives as text and is read as a bigint by the caller; no value is rounded on the way.
      const config = {
        name: query.postgresName,
        text: query.postgres,
        values: values.map((value) => (typeof value === "bigint" ? value.toString() : value)),
        types: UTC_TIMESTAMPS,
      };
      try {
        return (await read(config)).rows;
      } catch (error) {
        // pool.query drops a connection whose query failed; a read that met a dead one is read again on another.
        return (await againAfterOutage(error, read, config)).rows;
      }
    },
    // The pool is the Prisma adapter's too; disconnectDatabase() closes it after the client.
    async close() {},
  };
}

