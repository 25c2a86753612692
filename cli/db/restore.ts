// db restore FILE: replaces the SQLite database of a stopped app with a
// checked backup, keeping the database it replaces beside it
// (lib/backup/restore-sqlite.ts); on PostgreSQL, the pg_restore commands
// that restore a pg_dump backup into an empty database instead.
import { UsageError } from "@/cli/run-cli";
import { describeSize } from "@/lib/backup/describe-size";
import { pgRestoreCommands } from "@/lib/backup/pg-restore-command";
import { restoreSqlite } from "@/lib/backup/restore-sqlite";
import { env } from "@/lib/server/env";

export async function run(args: string[]): Promise<void> {
  const [file, ...rest] = args;
  if (file === undefined) throw new UsageError("restore needs the backup file to restore");
  if (rest.length > 0 || file.startsWith("-")) throw new UsageError(`restore takes one file name; got ${args.join(" ")}`);
  const { database } = env();
  if (database.provider === "postgresql") {
    throw new Error(
      "this database is PostgreSQL: restore a pg_dump backup with pg_restore into an empty database, then point DATABASE_URL at it:\n\n" +
        `  ${pgRestoreCommands(database.url, file)}\n\n` +
        "The database in use now is left as it is (docs/operations.md, Restore).",
    );
  }
  const restored = await restoreSqlite(database.path, file);
  const pending = restored.pendingMigrations.length;
  process.stdout.write(
    `restored ${restored.databasePath} from ${restored.backupFile} (${describeSize(restored.bytes)}, ${restored.plants.toLocaleString("en-US")} ${restored.plants === 1 ? "plant" : "plants"}, checked; ` +
      `migrations up to ${restored.latestMigration}${pending > 0 ? `, ${pending} newer applied when the app starts` : ""})\n` +
      (restored.replacedPath
        ? `the database it replaced is kept as ${restored.replacedPath}: remove it when you no longer need it (restoring it undoes this restore)\n`
        : "there was no database there before\n") +
      "API tokens, sessions and webhook secrets work only with the NEXTAUTH_SECRET (or DATA_DIR/auth-secret) of the store the backup was taken of\n",
  );
}
