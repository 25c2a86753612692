// npm run --silent db -- <command>: the operator's tools for the database as
// a whole (issue 23): a backup of the live SQLite database, a restore into a
// stopped app, and a copy into an empty database of either engine. Each
// command is a module of cli/db/, loaded only when asked for.
import { runCli, UsageError } from "@/cli/run-cli";

const USAGE = `usage:
  db backup [FILE]       a checked copy of the live SQLite database (the app may be running);
                         FILE defaults to BACKUP_DIR (or DATA_DIR/backups)/plant-store-<time>-manual.db;
                         on PostgreSQL, prints the pg_dump command to use instead
  db restore FILE        replaces the SQLite database of a stopped app with the backup FILE, after checking it;
                         the replaced database is kept beside it as <database>.replaced-<time>;
                         on PostgreSQL, prints the pg_restore commands to use instead
  db copy --to <DATABASE_URL>
                         copies everything the app keeps into an empty database of either engine
                         (file:... or postgresql://...), which it migrates first if it has never been;
                         verified table by table before it commits: interrupted, the target stays empty`;

const COMMANDS: Record<string, () => Promise<{ run(args: string[]): Promise<void> }>> = {
  backup: () => import("@/cli/db/backup"),
  restore: () => import("@/cli/db/restore"),
  copy: () => import("@/cli/db/copy"),
};

runCli("db", USAGE, async () => {
  const [command, ...args] = process.argv.slice(2);
  const load = command === undefined ? undefined : COMMANDS[command];
  if (!load) throw new UsageError(command ? `unknown command ${command}` : "a command is required");
  await (await load()).run(args);
});
