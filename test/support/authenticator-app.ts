import { generateSecret } from "otplib";
import { sealTotpSecret } from "@/lib/auth/second-factors/totp";
import type { TestDatabase } from "./test-database";
import { appAuthSecret, sqlTime } from "./webhook-endpoints";

/**
 * Gives the account with `email` an authenticator app confirmed a minute ago,
 * its seed sealed as the app seals it, as if the person had set it up on the
 * Account page; answers the seed, for the test to make codes with (otplib).
 */
export async function confirmAuthenticatorApp(database: TestDatabase, email: string): Promise<string> {
  const seed = generateSecret();
  const confirmedAt = sqlTime(database, new Date(Date.now() - 60_000));
  const sealed = sealTotpSecret(seed, appAuthSecret(database));
  await database.query("INSERT INTO totp_factors (user_id, secret, confirmed_at, created_at) SELECT id, $1, $2, $3 FROM users WHERE email = $4", [sealed, confirmedAt, confirmedAt, email]);
  return seed;
}
