// db backup [FILE]: a checked copy of the live SQLite database, while the app
// runs (lib/db/sqlite-snapshot.ts); on PostgreSQL, the pg_dump command that
// does the same there (we do not reimplement pg_dump).
import { existsSync } from "node:fs";
import path from "node:path";
import { UsageError } from "@/cli/run-cli";
import { backupFileName, defaultBackupDir } from "@/lib/backup/backup-files";
import { describeSize } from "@/lib/backup/describe-size";
import { pgDumpCommand } from "@/lib/backup/pg-dump-command";
import { snapshotSqlite } from "@/lib/db/sqlite-snapshot";
import { makeFolder } from "@/lib/db/write-failure";
import { env } from "@/lib/server/env";

export async function run(args: string[]): Promise<void> {
  if (args.length > 1 || args[0]?.startsWith("-")) throw new UsageError(`backup takes one file name at most; got ${args.join(" ")}`);
  const config = env();
  const { database } = config;
  if (database.provider === "postgresql") {
    // Exit 1: no backup was made, and a script that goes on to upload one must not think so.
    const dump = backupFileName(new Date(), "manual").replace(/\.db$/, ".dump");
    throw new Error(
      "this database is PostgreSQL, which pg_dump backs up while the app runs:\n\n" +
        `  ${pgDumpCommand(database.url, dump)}\n\n` +
        "Restore it with pg_restore into an empty database (docs/operations.md, Backups).",
    );
  }
  const file = path.resolve(args[0] ?? path.join(config.backupDir ?? defaultBackupDir(config.dataDir), backupFileName(new Date(), "manual")));
  if (existsSync(file)) throw new Error(`${file} exists; name another file, or remove it first`);
  // Taken as it is: a database of an older build is migrated when a restored app starts, as it would have been.
  if (!existsSync(database.path)) throw new Error(`there is no database at ${database.path} to back up (DATABASE_URL, DATA_DIR)`);
  makeFolder(path.dirname(file));
  const snapshot = await snapshotSqlite(database.path, file);
  process.stdout.write(`backed up ${database.path} to ${snapshot.file} (${describeSize(snapshot.bytes)}, checked, in ${(snapshot.durationMs / 1000).toFixed(1)} s)\n`);
}
