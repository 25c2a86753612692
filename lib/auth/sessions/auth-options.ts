import type { NextAuthOptions, User } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { originFromHeaders } from "@/lib/activity/action-attribution";
import type { RequestOrigin } from "@/lib/activity/actor";
import { safeCallbackPath } from "@/lib/auth/sessions/callback-url";
import { readSessionCookie } from "@/lib/auth/sessions/session-cookie";
import { env } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import { issueCodeChallenge, openCodeChallenge } from "@/lib/auth/sessions/code-challenge";
import { relyingParty, type RelyingParty } from "@/lib/auth/second-factors/passkey-relying-party";
import { type PasskeyAssertion, signInWithPasskey } from "@/lib/auth/second-factors/passkey-sign-in";
import { hasConfirmedTotp, spendSecondFactorCode } from "@/lib/auth/second-factors/second-factor";
import { checkPassword, type FactorSignIn, findSessionUser, findUser, recordSignIn, recordSignInFailure, recordWrongCode, type SignedInUser } from "@/lib/auth/accounts/users";
import { mayUseOwnCredentials } from "@/lib/auth/single-sign-on/sign-in-methods";
import { ssoSignInCallback } from "@/lib/auth/single-sign-on/sso-callback";
import { SSO_PROVIDER_ID, ssoProvider } from "@/lib/auth/single-sign-on/sso-provider";
import type { SsoClaims } from "@/lib/auth/single-sign-on/sso-sign-in";
import { blockedFor, countFailure, forgive } from "@/lib/http/rate-limit";
import { passkeySignInSchema } from "@/lib/validations/passkey";
import { SIGN_IN_RATE_LIMITED, signInCodeSchema, signInSchema } from "@/lib/validations/user";
import { SIGN_IN_CHALLENGE_EXPIRED, SIGN_IN_CODE_NEEDED, SIGN_IN_SSO_ONLY, SIGN_IN_WRONG_CODE } from "@/lib/validations/user-options";

// next-auth's configuration: staff sign in with email and password, then a
// one-time code if they have an authenticator app, or with a passkey alone
// (issue 24), or through the store's OpenID Connect provider (issue 34); the
// session is an encrypted JWT cookie that expires after a working day.

export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

let options: NextAuthOptions | undefined;

/**
 * authOptions for one request to next-auth's own routes: a single sign-on's
 * callback (issue 34) records the sign-in from the request's `origin`, and
 * sends the person on to `callbackPath` through the code step or back to
 * sign-in with why (lib/auth/single-sign-on/sso-callback.ts).
 */
export function authOptionsFor(origin: RequestOrigin, callbackPath: string): NextAuthOptions {
  const base = authOptions();
  return {
    ...base,
    callbacks: {
      ...base.callbacks,
      signIn: ({ user, account, profile }) => (account?.provider === SSO_PROVIDER_ID ? ssoSignInCallback(user, profile as SsoClaims | undefined, origin, callbackPath) : true),
    },
  };
}

/** Built on first use, not at import: the secret may come from the data directory, which `next build` must not touch. */
export function authOptions(): NextAuthOptions {
  const singleSignOn = env().singleSignOn;
  options ??= {
    secret: env().authSecret,
    // __Secure- session cookies, marked Secure, once the app is known to be served over https;
    // next-auth's cookies are HttpOnly and SameSite=Lax either way.
    useSecureCookies: env().authUrl?.startsWith("https://") ?? false,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    // next-auth's messages join the app's JSON log lines. Only the code and
    // the error's message are kept: its metadata may carry request details.
    logger: {
      warn: (code) => log.warn(`next-auth: ${code}`, { see: `https://next-auth.js.org/warnings#${code.toLowerCase()}` }),
      // A single sign-on's answer that fails a check (a wrong or replayed state, a used code, another
      // audience...) is what anyone can send: a warning with why, not an error of the app's.
      error: (code, metadata) => (code === "OAUTH_CALLBACK_ERROR" ? log.warn : log.error)(`next-auth: ${code}`, { detail: (metadata instanceof Error ? metadata : metadata.error)?.message }),
      debug: () => {},
    },
    providers: [
      CredentialsProvider({
        name: "email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, request) {
          const parsed = signInSchema.safeParse(credentials);
          if (!parsed.success) return null;
          const origin = originFromHeaders((name) => headerValue(request.headers, name), null);
          const user = await authenticateWithinLimits(parsed.data.email, parsed.data.password, origin);
          return user && sessionUser(user);
        },
      }),
      // Sign-in's second step, for a person with an authenticator app: the
      // ticket the password step answered, and a code or a recovery code.
      CredentialsProvider({
        id: "code",
        name: "one-time code",
        credentials: { ticket: { type: "hidden" }, code: { label: "Code", type: "text" } },
        async authorize(credentials, request) {
          const parsed = signInCodeSchema.safeParse(credentials);
          if (!parsed.success) return null;
          const origin = originFromHeaders((name) => headerValue(request.headers, name), null);
          const user = await signInWithCode(parsed.data.ticket, parsed.data.code, origin);
          return user && sessionUser(user);
        },
      }),
      // A passkey alone (issue 24): the sign-in page posts the challenge's id and the browser's assertion.
      CredentialsProvider({
        id: "passkey",
        name: "passkey",
        credentials: { challengeId: { type: "text" }, response: { type: "text" } },
        async authorize(credentials, request) {
          const parsed = passkeySignInSchema.safeParse(credentials);
          if (!parsed.success) return null;
          const get = (name: string) => headerValue(request.headers, name);
          const rp = relyingParty(relyingPartyHeaders(get));
          if (!rp) return null;
          const origin = originFromHeaders(get, null);
          // A single sign-on that did not pass the person's second factor (issue 34) is followed by their passkey.
          // Only a session that still counts: not one ended since (sign out everywhere, a reset, deactivation).
          const session = await readSessionCookie(get("cookie") ?? null);
          const current = session?.factor === "sso" ? await findSessionUser(session.userId, session.signedInAt) : null;
          const afterSingleSignOnOf = current?.id;
          const user = await signInWithPasskeyWithinLimits(parsed.data.challengeId, parsed.data.response, rp, origin, afterSingleSignOnOf);
          return user && { id: user.id, email: user.email, name: user.name, signedInAt: user.signedInAt.getTime(), factor: "passkey" };
        },
      }),
      // The store's OpenID Connect provider, when one is configured (issue 34).
      ...(singleSignOn.state === "on" ? [ssoProvider(singleSignOn)] : []),
    ],
    callbacks: {
      // The token carries only who signed in (sub), when (signedInAt, ms) and
      // how (factor: lib/auth/sessions/session-cookie.ts); role, activity and whether
      // the session still counts are read from the database on every request
      // (lib/auth/sessions/require-staff.ts), so changes apply at once.
      jwt: ({ token, user }) => (user?.signedInAt === undefined ? token : { ...token, signedInAt: user.signedInAt, factor: user.factor }),
      session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub } }),
      redirect: ({ url, baseUrl }) => {
        const sameOrigin = url.startsWith(`${baseUrl}/`) ? url.slice(baseUrl.length) : url;
        return `${baseUrl}${safeCallbackPath(sameOrigin)}`;
      },
    },
  };
  return options;
}

/**
 * Checks a password only while neither the client's address nor the account
 * has used up its failed sign-ins. The account is the email as typed, whether
 * or not an account has it, so the answer never tells which emails exist.
 * Refused, next-auth hands the form "rate-limited:<seconds>", and nothing is
 * recorded: no password was checked. A checked one is recorded, either way
 * (checkPassword), from `origin`. A right password for a person with an
 * authenticator app signs nobody in: the form gets "code-needed:<ticket>"
 * and asks for a code (signInWithCode). The account's failures are forgiven
 * only once every step passed, so a known password does not buy more guesses
 * at the code.
 */
async function authenticateWithinLimits(email: string, password: string, origin: RequestOrigin): Promise<FactorSignIn | null> {
  const address = origin.clientAddress ?? "unknown";
  const account = email.trim().toLowerCase();
  await requireWithinLimits(address, account);
  const user = await checkPassword(email, password, origin);
  if (!user) {
    await Promise.all([countFailure("signInAddress", address), countFailure("signInAccount", account)]);
    return null;
  }
  // Where owners chose "single sign-on only", a staff member's password opens nothing (issue 34).
  if (!(await mayUseOwnCredentials(user.role))) {
    await recordSignInFailure(user.id, account, "staff sign in by single sign-on only", origin);
    throw new Error(SIGN_IN_SSO_ONLY);
  }
  if (await hasConfirmedTotp(user.id)) throw new Error(`${SIGN_IN_CODE_NEEDED}:${issueCodeChallenge({ userId: user.id, account })}`);
  await forgive("signInAccount", account);
  return recordSignIn(user, "password", origin);
}

/**
 * Sign-in's second step: a code of the person's authenticator app, or one of
 * their recovery codes, spent once, within the same limits as passwords; a
 * wrong one counts as a failed sign-in of the account (and is recorded, never
 * the code). An expired ticket sends the form back to the password.
 */
async function signInWithCode(ticket: string, code: string, origin: RequestOrigin): Promise<FactorSignIn | null> {
  const challenge = openCodeChallenge(ticket);
  if (!challenge) throw new Error(SIGN_IN_CHALLENGE_EXPIRED);
  const address = origin.clientAddress ?? "unknown";
  await requireWithinLimits(address, challenge.account);
  const user = await findUser(challenge.userId);
  if (!user) throw new Error(SIGN_IN_CHALLENGE_EXPIRED);
  const factor = await spendSecondFactorCode(user.id, code);
  if (!factor) {
    await Promise.all([countFailure("signInAddress", address), countFailure("signInAccount", challenge.account), recordWrongCode(user, origin)]);
    throw new Error(SIGN_IN_WRONG_CODE);
  }
  await forgive("signInAccount", challenge.account);
  return recordSignIn(user, factor, origin);
}

/** Throws next-auth's "rate-limited:<seconds>" while the address or the account has used up its failed sign-ins. */
async function requireWithinLimits(address: string, account: string): Promise<void> {
  const waits = await Promise.all([blockedFor("signInAddress", address), blockedFor("signInAccount", account)]);
  const wait = Math.max(0, ...waits.filter((seconds) => seconds !== undefined));
  if (wait > 0) throw new Error(`${SIGN_IN_RATE_LIMITED}:${wait}`);
}

/** What next-auth keeps of a signed-in user in the session's token (the jwt callback). */
function sessionUser(user: FactorSignIn): User {
  return { id: user.id, email: user.email, name: user.name, signedInAt: user.signedInAt.getTime(), factor: user.factor };
}

/**
 * A passkey's signature cannot be guessed, but each try costs a challenge and
 * a verification: failures count against the client's address as failed
 * passwords do. No account is named until the passkey is found, so none is charged.
 */
async function signInWithPasskeyWithinLimits(challengeId: string, assertion: PasskeyAssertion, rp: RelyingParty, origin: RequestOrigin, afterSingleSignOnOf: string | undefined): Promise<SignedInUser | null> {
  const address = origin.clientAddress ?? "unknown";
  const wait = (await blockedFor("signInAddress", address)) ?? 0;
  if (wait > 0) throw new Error(`${SIGN_IN_RATE_LIMITED}:${wait}`);
  const user = await signInWithPasskey(challengeId, assertion, rp, origin, { afterSingleSignOnOf });
  if (!user) await countFailure("signInAddress", address);
  return user;
}

/** The headers the relying party is derived from when NEXTAUTH_URL is unset (lib/auth/second-factors/passkey-relying-party.ts). */
function relyingPartyHeaders(get: (name: string) => string | undefined): Headers {
  const headers = new Headers();
  for (const name of ["host", "x-forwarded-host", "x-forwarded-proto"]) {
    const value = get(name);
    if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

function headerValue(headers: Record<string, unknown> | undefined, name: string): string | undefined {
  const value = headers?.[name];
  return typeof value === "string" ? value : undefined;
}
