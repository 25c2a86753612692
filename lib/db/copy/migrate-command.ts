import { type DatabaseConfig, hasPassword, withoutPassword } from "@/lib/db/database-url";

// The command that migrates a copy's target, for the operator to run as
// printed: the target's URL as they gave it, with its password (if any)
// replaced by a placeholder, since what a command prints ends up in
// terminals' scrollback and CI logs.

/** `DATABASE_URL='<url>' npm run db:migrate`, the password left out (and said to be). It needs none of the app's secrets. */
export function migrateCommand(target: DatabaseConfig, url: string): string {
  const command = `DATABASE_URL=${shellQuote(withoutPassword(url))} npm run db:migrate`;
  if (target.provider === "sqlite" || !hasPassword(url)) return command;
  return `${command}\n\n(with the password in place of <password>)`;
}

function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
