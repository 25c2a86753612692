/**
 * The pg_dump command that backs up the PostgreSQL database at `url` into
 * `file` (custom format, for pg_restore). The password is left out of what is
 * printed, never shown on a terminal or in a log: pg_dump reads it from
 * PGPASSWORD or ~/.pgpass, as the note printed with it says.
 */
export function pgDumpCommand(url: string, file: string): string {
  const target = new URL(url);
  const hadPassword = target.password !== "";
  target.password = "";
  const command = `pg_dump --format=custom --file=${shellQuote(file)} ${shellQuote(target.href)}`;
  return hadPassword ? `${command}\n  (the password is left out: give it in PGPASSWORD or ~/.pgpass)` : command;
}

/** A word for a POSIX shell, quoted only when it must be. */
export function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
