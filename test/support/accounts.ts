import { randomUUID } from "node:crypto";
import { hashPassword } from "@/lib/auth/passwords/passwords";
import { type NewUser, newUserSchema } from "@/lib/validations/user";
import { recordAsCli, startAsCli } from "./cli-records";
import type { TestDatabase } from "./test-database";
import { sqlTime } from "./webhook-endpoints";

// Staff accounts made in the test process, as `user create` makes them
// (lib/auth/accounts/users.ts createUser): the password hashed by the app's
// own function, the same row, and the same activity record. Not through the
// CLI, which cost a process per account where a test is about signing in, not
// about the CLI (issue 31); cli/user.test.ts tests the CLI itself.

export type NewAccount = Omit<NewUser, "name"> & { name?: string };

/** Makes the account, its values read by the CLI's schema; answers its id. The name defaults to the email's local part, as the CLI's does. */
export async function makeAccount(database: TestDatabase, account: NewAccount): Promise<string> {
  const { email, name, role, password } = newUserSchema.parse({ ...account, name: account.name ?? account.email.split("@")[0] ?? account.email });
  await startAsCli(database);
  const id = randomUUID();
  const createdAt = new Date();
  await database.query("INSERT INTO users (id, email, name, role, password_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6)", [
    id,
    email,
    name,
    role,
    await hashPassword(password),
    sqlTime(database, createdAt),
  ]);
  await recordAsCli(database, { action: "account.created", subjectKind: "account", subjectId: id, changes: { after: { name, email, role } }, at: createdAt });
  return id;
}
