import type { User } from "next-auth";
import type { RequestOrigin } from "@/lib/activity/actor";
import { signInWithSso, type SsoClaims } from "@/lib/auth/single-sign-on/sso-sign-in";
import { env } from "@/lib/server/env";
import { log } from "@/lib/server/log";

// next-auth's signIn callback for a single sign-on (issue 34), run once the
// provider's answer has passed every check: true signs in the account
// signInWithSso found (its id, name, email, time and factor put in `user`,
// which next-auth then makes the session's token from); a URL sends the
// person there instead, with no session: the code step, or the sign-in page
// saying why they were refused. Nothing of the provider's error, nor any
// claim, goes into that URL.

/** Why the sign-in page says a single sign-on did not sign anyone in (its `error` parameter). */
export const SSO_FAILED = "sso-failed";

export async function ssoSignInCallback(user: User, claims: SsoClaims | undefined, origin: RequestOrigin, callbackPath: string): Promise<true | string> {
  const config = env().singleSignOn;
  const signInPage = (query: Record<string, string>) => `${env().authUrl ?? ""}/sign-in?${new URLSearchParams({ ...query, callbackUrl: callbackPath })}`;
  if (config.state !== "on" || !claims) return signInPage({ error: SSO_FAILED });
  try {
    const outcome = await signInWithSso(claims, config.allowedDomains, origin);
    if (outcome.outcome === "refused") return signInPage({ error: outcome.reason });
    if (outcome.outcome === "code_needed") return signInPage({ code: outcome.ticket });
    const signedIn = outcome.user;
    Object.assign(user, { id: signedIn.id, email: signedIn.email, name: signedIn.name, signedInAt: signedIn.signedInAt.getTime(), factor: signedIn.factor });
    return true;
  } catch (error) {
    // The database, most likely: the person tries again; the operator reads why.
    log.error("single sign-on failed", { detail: error instanceof Error ? error.message : String(error) });
    return signInPage({ error: SSO_FAILED });
  }
}
