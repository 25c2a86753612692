import path from "node:path";

// Which database DATABASE_URL names, and where that database's Prisma schema
// and migrations live. Free of the app's other modules: prisma.config.ts (run
// by the Prisma CLI) reads it too, so the CLI and the app always agree.

export type DatabaseConfig = { provider: "sqlite"; path: string } | { provider: "postgresql"; url: string };
export type DatabaseProvider = DatabaseConfig["provider"];

export const DEFAULT_DATA_DIR = "./data";

export const DATABASE_URL_RULE =
  "must be a SQLite file URL such as file:./data/plant-store.db or a PostgreSQL URL such as postgresql://user:password@host:5432/plant_store";

/** The SQLite file in a data directory, used when DATABASE_URL is not set. */
export function defaultDatabasePath(dataDir: string): string {
  return path.join(dataDir, "plant-store.db");
}

/** The database a DATABASE_URL names (SQLite in dataDir when unset), or undefined for anything else. */
export function parseDatabaseUrl(url: string | undefined, dataDir: string): DatabaseConfig | undefined {
  if (url === undefined) return { provider: "sqlite", path: path.resolve(defaultDatabasePath(dataDir)) };
  if (/^file:./.test(url)) return { provider: "sqlite", path: path.resolve(url.slice("file:".length)) };
  if (/^postgres(ql)?:\/\/./.test(url) && URL.canParse(url)) return { provider: "postgresql", url };
  return undefined;
}

/** Each provider's folder under prisma/: its schema.prisma and migrations/. */
export const PRISMA_FOLDERS: Record<DatabaseProvider, string> = { sqlite: "prisma/sqlite", postgresql: "prisma/postgres" };

/** The database for a log line: a SQLite path, or a PostgreSQL server and database without credentials. */
export function describeDatabase(database: DatabaseConfig): string {
  if (database.provider === "sqlite") return database.path;
  const url = new URL(database.url);
  return `postgresql://${url.host}${url.pathname}`;
}

/** Whether a URL carries a password, in its authority or as a password= parameter. */
export function hasPassword(url: string): boolean {
  if (!URL.canParse(url) || url.startsWith("file:")) return false;
  const parsed = new URL(url);
  return parsed.password !== "" || parsed.searchParams.has("password");
}

/** The URL with <password> where its password was, in the authority or as a password= parameter. */
export function withoutPassword(url: string): string {
  if (!hasPassword(url)) return url;
  const parsed = new URL(url);
  // Built by hand: URL's own setters would percent-encode the placeholder's brackets.
  const auth = parsed.username === "" && parsed.password === "" ? "" : `${parsed.username}${parsed.password === "" ? "" : ":<password>"}@`;
  const search = [...parsed.searchParams].map(([name, value]) => `${encodeURIComponent(name)}=${name === "password" ? "<password>" : encodeURIComponent(value)}`).join("&");
  return `${parsed.protocol}//${auth}${parsed.host}${parsed.pathname}${search === "" ? "" : `?${search}`}`;
}
