import type { Attribution } from "@/lib/activity/actor";
import { readSetting, saveSetting } from "@/lib/auth/store-settings";
import { db, type Prisma } from "@/lib/db/client";
import { serializableTransaction } from "@/lib/db/serializable-transaction";
import { env } from "@/lib/server/env";
import { signInMethodsSchema } from "@/lib/validations/sign-in-methods";
import type { SignInMethods } from "@/lib/validations/sign-in-methods-options";
import type { Role } from "@/lib/validations/user-options";

// How staff may sign in (issue 34), the owners' choice, kept in the settings
// table under one key: absent reads as "all". With "sso_only", staff sign in
// only through the store's OpenID Connect provider; owners keep their
// password and passkeys, so that a provider that is down, or a configuration
// gone wrong, never locks the store out. It is read at every sign-in, so a
// change counts at once on every instance; sessions already open stay open
// until they expire or are ended (deactivation, "sign out everywhere").

export const SIGN_IN_METHODS_KEY = "sign_in_methods";

type Client = Prisma.TransactionClient;

export async function readSignInMethods(client: Client = db()): Promise<SignInMethods> {
  return readSetting(client, SIGN_IN_METHODS_KEY, signInMethodsSchema, { absent: "all", unknown: "sso_only" });
}

/** Whether a person of `role` may sign in with a password or a passkey under the store's choice. */
export async function mayUseOwnCredentials(role: Role): Promise<boolean> {
  return role === "owner" || (await readSignInMethods()) === "all";
}

/** "Single sign-on only" chosen where no provider is configured: staff would have no way in. */
export class SingleSignOnNotConfiguredError extends Error {
  override name = "SingleSignOnNotConfiguredError";

  constructor() {
    super("single sign-on is not set up on this server (OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET): staff could not sign in at all");
  }
}

/**
 * Sets how staff sign in, as `by` (an owner) chose it, and records it
 * (settings.changed) in its transaction; the store's choice already changes
 * and records nothing. "sso_only" is refused while single sign-on is not
 * configured (SingleSignOnNotConfiguredError).
 */
export async function changeSignInMethods(methods: SignInMethods, by: Attribution): Promise<{ before: SignInMethods; after: SignInMethods }> {
  if (methods === "sso_only" && env().singleSignOn.state !== "on") throw new SingleSignOnNotConfiguredError();
  return serializableTransaction(async (tx) => {
    const before = await readSignInMethods(tx);
    if (before === methods) return { before, after: methods };
    await saveSetting(tx, SIGN_IN_METHODS_KEY, "signInMethods", { before, after: methods }, by);
    return { before, after: methods };
  });
}
