import { shellQuote } from "@/lib/backup/pg-dump-command";

/**
 * The commands that restore a pg_dump backup (custom format, as `db backup`
 * shows) next to the PostgreSQL database at `url`: a new, empty database
 * named <name>_restored, and pg_restore into it in one transaction, so that a
 * failure leaves it empty rather than half-restored. The app is then pointed
 * at it; the database it used stays as it was. The password is left out of
 * what is printed, as pgDumpCommand leaves it out.
 */
export function pgRestoreCommands(url: string, file: string): string {
  const current = new URL(url);
  const hadPassword = current.password !== "";
  current.password = "";
  const restored = new URL(current.href);
  const name = `${decodeURIComponent(current.pathname.slice(1)) || "plant_store"}_restored`;
  restored.pathname = `/${encodeURIComponent(name)}`;
  const commands = [
    `createdb --maintenance-db=${shellQuote(current.href)} ${shellQuote(name)}`,
    `pg_restore --exit-on-error --single-transaction --no-owner --dbname=${shellQuote(restored.href)} ${shellQuote(file)}`,
  ].join("\n  ");
  return hadPassword ? `${commands}\n  (the password is left out: give it in PGPASSWORD or ~/.pgpass)` : commands;
}
