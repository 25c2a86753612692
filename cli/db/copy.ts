// db copy --to <DATABASE_URL>: everything the app keeps, from the configured
// database into an empty one of either engine, which it migrates first if it
// has never been; verified table by table before it commits
// (lib/db/copy/copy-database.ts). The progress goes to stderr on a terminal,
// the summary to stdout.
import path from "node:path";
import { parseArgs } from "node:util";
import { count, seconds, terminalProgress } from "@/cli/db/copy-progress";
import { UsageError } from "@/cli/run-cli";
import { copyDatabase, type CopyProgress, type CopyResult, CopyVerificationError, type TableReport } from "@/lib/db/copy/copy-database";
import { DATABASE_URL_RULE, type DatabaseConfig, describeDatabase, parseDatabaseUrl } from "@/lib/db/database-url";
import { env } from "@/lib/server/env";

export async function run(args: string[]): Promise<void> {
  const target = targetOf(args);
  const config = env();
  const { database } = config;
  const progress = terminalProgress(process.stderr);
  let committing = false;
  const interrupted = () => {
    // Past verification the COMMIT is under way: it is let finish, so the copy is either whole or absent.
    if (committing) return;
    process.stderr.write("\ninterrupted: nothing was committed, the target is left empty: run the copy again\n");
    process.exit(130);
  };
  process.on("SIGINT", interrupted).on("SIGTERM", interrupted);
  const started = performance.now();
  const notices: CopyProgress = {
    ...progress,
    migrated: (applied) => process.stderr.write(`migrated the empty target ${describeDatabase(target.config)}: ${migrations(applied)}\n`),
    started: (tables) => {
      const rows = tables.reduce((sum, table) => sum + table.rows, 0);
      process.stderr.write(
        `copying ${count(rows)} rows from ${describeDatabase(database)} to ${describeDatabase(target.config)} in one transaction; ` +
          "if interrupted, the target is left empty: run it again\n",
      );
    },
    committing: () => {
      committing = true;
      progress.committing?.();
    },
  };
  try {
    const result = await copyDatabase(database, target, notices);
    process.stderr.write(process.stderr.isTTY ? "\r\x1b[K" : "");
    process.stdout.write(summary(result, performance.now() - started, database.provider === "sqlite" ? config.dataDir : null));
  } catch (error) {
    if (error instanceof CopyVerificationError) process.stdout.write(`${reportTable(error.tables)}\n`);
    throw error;
  } finally {
    process.off("SIGINT", interrupted).off("SIGTERM", interrupted);
  }
}

function targetOf(args: string[]): { config: DatabaseConfig; url: string } {
  let values: { to?: string };
  try {
    ({ values } = parseArgs({ args, options: { to: { type: "string" } }, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.to === undefined || values.to === "") throw new UsageError("copy needs --to <DATABASE_URL>, the database to copy into");
  const config = parseDatabaseUrl(values.to, process.cwd());
  if (!config) throw new UsageError(`--to ${DATABASE_URL_RULE}`);
  return { config, url: values.to };
}

function summary(result: CopyResult, totalMs: number, sqliteDataDir: string | null): string {
  const rows = result.tables.reduce((sum, table) => sum + table.targetRows, 0);
  const lines = [
    `copied ${count(rows)} rows from ${result.source} to ${result.target} in ${seconds(totalMs)} ` +
      `(copy ${seconds(result.copyMs)}, verification ${seconds(result.verifyMs)}), verified table by table and committed:`,
    "",
    reportTable(result.tables),
    "",
    `not copied: ${result.skipped.map(([table, why]) => `${table} (${why})`).join(", ")}`,
  ];
  if (result.foreign.length > 0) lines.push(`not copied, not the app's: ${result.foreign.join(", ")}`);
  if (result.migratedTarget.length > 0) lines.push(`the target was empty, and was migrated first: ${migrations(result.migratedTarget)}`);
  for (const { table, column, next } of result.generatedIds) lines.push(`the target gives ${table}.${column} from ${next} on`);
  const secretFile = sqliteDataDir === null ? "" : ` (unless NEXTAUTH_SECRET is set here, it is the file ${path.join(sqliteDataDir, "auth-secret")})`;
  lines.push(
    "",
    `Start the app on the target with the same NEXTAUTH_SECRET as this one${secretFile}: API tokens, sessions and webhook secrets are sealed with it.`,
  );
  return `${lines.join("\n")}\n`;
}

/** "9 migrations applied, up to 20261128000000_second_factors" */
function migrations(applied: readonly string[]): string {
  return `${applied.length} ${applied.length === 1 ? "migration" : "migrations"} applied, up to ${applied.at(-1)}`;
}

/** table, rows, checksum: one line each, and whether the target read back as the source was read. */
function reportTable(tables: readonly TableReport[]): string {
  const width = Math.max(...tables.map((report) => report.table.length), "table".length);
  const rowsWidth = Math.max(...tables.map((report) => count(report.sourceRows).length), "rows".length);
  const line = (table: string, rows: string, checksum: string) => `  ${table.padEnd(width)}  ${rows.padStart(rowsWidth)}  ${checksum}`;
  return [
    line("table", "rows", "checksum"),
    ...tables.map((report) =>
      report.matches
        ? line(report.table, count(report.targetRows), report.targetRows === 0 ? "match" : `match ${report.targetChecksum.slice(0, 16)}`)
        : line(
            report.table,
            count(report.sourceRows),
            `DIFFERS: source ${count(report.sourceRows)} rows ${report.sourceChecksum.slice(0, 16)}, target ${count(report.targetRows)} rows ${report.targetChecksum.slice(0, 16)}`,
          ),
    ),
  ].join("\n");
}
