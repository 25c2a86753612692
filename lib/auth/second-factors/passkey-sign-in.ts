import { generateAuthenticationOptions, type PublicKeyCredentialRequestOptionsJSON, verifyAuthenticationResponse } from "@simplewebauthn/server";
import type { z } from "zod";
import { accountRecord, NO_ACCOUNT } from "@/lib/activity/account-records";
import { personActor, type RequestOrigin } from "@/lib/activity/actor";
import { recordActivity } from "@/lib/activity/record";
import { counterAdvances } from "@/lib/auth/second-factors/passkey-counter";
import type { RelyingParty } from "@/lib/auth/second-factors/passkey-relying-party";
import { splitTransports } from "@/lib/auth/second-factors/passkeys";
import { recordSignInFailure, type SignedInUser, toStaffUser } from "@/lib/auth/accounts/users";
import { issueChallenge, takeChallenge } from "@/lib/auth/second-factors/webauthn-challenges";
import { mayUseOwnCredentials } from "@/lib/auth/single-sign-on/sign-in-methods";
import { db } from "@/lib/db/client";
import { SIGN_IN_SSO_ONLY } from "@/lib/validations/user-options";
import { spendOrWait } from "@/lib/http/rate-limit";
import { log } from "@/lib/server/log";
import type { authenticationResponseSchema } from "@/lib/validations/passkey";

// Signing in with a passkey alone (issue 24): the sign-in page asks for a
// challenge, the browser has the authenticator sign it, and next-auth's
// "passkey" provider (lib/auth/sessions/auth-options.ts) hands the assertion here.
// No email is typed: the credential id names the passkey, and its user handle
// must name the same account. Anyone may ask for a challenge, and each is a
// row for five minutes, so asking is limited per client address
// (RATE_LIMIT_PASSKEY_CHALLENGE_ADDRESS): every challenge made counts.

/** The options for navigator.credentials.get(), and the id of their challenge to send back. */
export type PasskeyAuthentication = { challengeId: string; options: PublicKeyCredentialRequestOptionsJSON };

/** A challenge refused: `address` has asked for too many; nothing was written. */
export type PasskeyChallengeRefused = { waitSeconds: number };

/** A challenge for `address`, within its allowance; once that is spent, the seconds to wait, and no row is made. */
export async function beginPasskeySignIn(rp: RelyingParty, address: string): Promise<PasskeyAuthentication | PasskeyChallengeRefused> {
  const waitSeconds = await spendOrWait("passkeyChallengeAddress", address);
  if (waitSeconds !== undefined) return { waitSeconds };
  const issued = await issueChallenge("authentication", null);
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    challenge: new Uint8Array(Buffer.from(issued.challenge, "base64url")),
    // Empty: the browser offers the person's discoverable passkeys for this site.
    allowCredentials: [],
    userVerification: "required",
  });
  return { challengeId: issued.id, options };
}

export type PasskeyAssertion = z.output<typeof authenticationResponseSchema>;

/**
 * The account this assertion opens, or null. Refused: a challenge unknown,
 * used or expired; a passkey nobody has; a signature, origin, relying party or
 * user verification the library does not accept; a user handle of another
 * account; a signature counter that does not increase (logged at warn: it may
 * be a cloned authenticator); a deactivated account. A staff member's passkey
 * where owners chose "single sign-on only" throws SIGN_IN_SSO_ONLY, for the
 * form to say so, unless it is the second factor of this browser's single
 * sign-on of the same account (`afterSingleSignOnOf`: that session's account). Every outcome with a passkey is in the activity record, as a
 * password sign-in's is.
 */
export async function signInWithPasskey(
  challengeId: string,
  assertion: PasskeyAssertion,
  rp: RelyingParty,
  origin: RequestOrigin | null,
  { afterSingleSignOnOf }: { afterSingleSignOnOf?: string } = {},
): Promise<SignedInUser | null> {
  const challenge = await takeChallenge(challengeId, "authentication", null);
  if (!challenge) return null;
  const passkey = await db().passkey.findUnique({ where: { id: assertion.id }, include: { user: true } });
  if (!passkey) {
    await recordSignInFailure(NO_ACCOUNT, "", "unknown passkey", origin);
    return null;
  }
  const { user } = passkey;
  const handle = assertion.response.userHandle;
  if (handle !== undefined && Buffer.from(handle, "base64url").toString("utf8") !== user.id) {
    await recordSignInFailure(user.id, user.email, "passkey refused", origin);
    return null;
  }
  const verification = await verifyAuthenticationResponse({
    response: assertion,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    // The counter is checked below, by the app's own rule, once the signature is known to be the passkey's:
    // the library would refuse too, but silently.
    credential: { id: passkey.id, publicKey: new Uint8Array(Buffer.from(passkey.publicKey, "base64url")), counter: 0, transports: splitTransports(passkey.transports) },
    requireUserVerification: true,
  }).catch(() => undefined);
  if (!verification?.verified) {
    await recordSignInFailure(user.id, user.email, "passkey refused", origin);
    return null;
  }
  const received = BigInt(verification.authenticationInfo.newCounter);
  if (!counterAdvances(passkey.counter, received)) {
    log.warn("passkey sign-in refused: its signature counter did not increase, the passkey may be cloned", {
      userId: user.id,
      passkeyId: passkey.id,
      storedCounter: passkey.counter.toString(),
      receivedCounter: received.toString(),
    });
    await recordSignInFailure(user.id, user.email, "passkey refused", origin);
    return null;
  }
  if (user.deactivatedAt) {
    await recordSignInFailure(user.id, user.email, "deactivated", origin);
    return null;
  }
  const staff = toStaffUser(user);
  // Under "single sign-on only", a staff member's passkey is still their second factor after a single sign-on.
  if (afterSingleSignOnOf !== user.id && !(await mayUseOwnCredentials(staff.role))) {
    await recordSignInFailure(user.id, user.email, "staff sign in by single sign-on only", origin);
    throw new Error(SIGN_IN_SSO_ONLY);
  }
  const now = new Date();
  const updated = await db().$transaction(async (tx) => {
    // Only from the counter just checked: of two assertions racing with the same counter, one wins.
    const { count } = await tx.passkey.updateMany({
      where: { id: passkey.id, counter: passkey.counter },
      data: { counter: received, lastUsedAt: now, backedUp: verification.authenticationInfo.credentialBackedUp },
    });
    if (count !== 1) return false;
    await tx.user.update({ where: { id: user.id }, data: { lastSignInAt: now } });
    await recordActivity(tx, [accountRecord("sign_in.succeeded", user.id, { after: { factor: "passkey" } }, { actor: personActor(staff), origin })], now);
    return true;
  });
  if (!updated) return null;
  const signedInAt = user.sessionsValidFrom && user.sessionsValidFrom > now ? user.sessionsValidFrom : now;
  return { ...staff, signedInAt };
}
