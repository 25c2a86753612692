import { generateRegistrationOptions, type PublicKeyCredentialCreationOptionsJSON, verifyRegistrationResponse } from "@simplewebauthn/server";
import { accountRecord } from "@/lib/activity/account-records";
import type { Attribution } from "@/lib/activity/actor";
import { recordActivity } from "@/lib/activity/record";
import type { SessionsEnded } from "@/lib/auth/accounts/own-account";
import { PasskeyNotFoundError, PasskeyRefusedError } from "@/lib/auth/second-factors/passkey-errors";
import type { RelyingParty } from "@/lib/auth/second-factors/passkey-relying-party";
import { toStaffUser, type StaffUser } from "@/lib/auth/accounts/users";
import { issueChallenge, takeChallenge } from "@/lib/auth/second-factors/webauthn-challenges";
import { db, Prisma } from "@/lib/db/client";
import type { NewPasskey } from "@/lib/validations/passkey";

// A person's own passkeys (issue 24): added and removed on the Account page.
// Discoverable credentials with user verification required: the passkey
// names its account at sign-in and is two factors on its own (something held,
// unlocked by something known or something one is), so it signs in alone.
// Stored as the specification gives them: the credential id and the COSE
// public key (base64url), and the signature counter.
//
// Adding or removing one is a change of how the account is opened, so, as a new
// password does, it ends the person's other sessions (sessions_valid_from) and
// is recorded in its transaction; the caller reissues its own session.

export type PasskeySummary = { id: string; name: string; createdAt: Date; lastUsedAt: Date | null; backedUp: boolean };

export async function listPasskeys(userId: string): Promise<PasskeySummary[]> {
  return db().passkey.findMany({
    where: { userId },
    orderBy: { createdAt: "asc" },
    select: { id: true, name: true, createdAt: true, lastUsedAt: true, backedUp: true },
  });
}

/** The options for the browser's navigator.credentials.create(), and the id of their challenge to send back. */
export type PasskeyRegistration = { challengeId: string; options: PublicKeyCredentialCreationOptionsJSON };

export async function beginPasskeyRegistration(user: StaffUser, rp: RelyingParty): Promise<PasskeyRegistration> {
  const issued = await issueChallenge("registration", user.id);
  const existing = await db().passkey.findMany({ where: { userId: user.id }, select: { id: true, transports: true } });
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.name,
    // The user handle: the account's id, so that a passkey names whose it is, and nothing personal (§14.6.1).
    userID: new TextEncoder().encode(user.id),
    challenge: new Uint8Array(Buffer.from(issued.challenge, "base64url")),
    attestationType: "none",
    // The same authenticator twice would be two rows for one key.
    excludeCredentials: existing.map((passkey) => ({ id: passkey.id, transports: splitTransports(passkey.transports) })),
    authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" },
  });
  return { challengeId: issued.id, options };
}

/**
 * Verifies the browser's new credential against the challenge it was given
 * (taken once), this app's origin and id, and user verification, then keeps
 * it under `passkey.name`. Throws PasskeyRefusedError with what to tell the person.
 */
export async function addPasskey(user: StaffUser, passkey: NewPasskey, rp: RelyingParty, by: Attribution): Promise<SessionsEnded> {
  const challenge = await takeChallenge(passkey.challengeId, "registration", user.id);
  if (!challenge) throw new PasskeyRefusedError("the request to add a passkey expired: try again");
  const verification = await verifyRegistrationResponse({
    response: passkey.response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
  }).catch(() => undefined);
  if (!verification?.verified) throw new PasskeyRefusedError("the browser's passkey could not be verified: try again");
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  try {
    return await db().$transaction(async (tx) => {
      const now = new Date();
      await tx.passkey.create({
        data: {
          id: credential.id,
          userId: user.id,
          name: passkey.name,
          publicKey: Buffer.from(credential.publicKey).toString("base64url"),
          counter: BigInt(credential.counter),
          transports: (credential.transports ?? []).join(" "),
          deviceType: credentialDeviceType,
          backedUp: credentialBackedUp,
          createdAt: now,
        },
      });
      const row = await tx.user.update({ where: { id: user.id }, data: { sessionsValidFrom: now } });
      await recordActivity(tx, [accountRecord("account.passkey_added", user.id, { after: { passkey: passkey.name } }, by)], now);
      return { user: toStaffUser(row), sessionsValidFrom: now };
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") throw new PasskeyRefusedError("this passkey is already added");
    throw error;
  }
}

/** Removes one of the person's own passkeys; throws PasskeyNotFoundError for any other id. */
export async function removePasskey(user: StaffUser, passkeyId: string, by: Attribution): Promise<SessionsEnded> {
  return db().$transaction(async (tx) => {
    const now = new Date();
    const passkey = await tx.passkey.findFirst({ where: { id: passkeyId, userId: user.id }, select: { name: true } });
    const { count } = await tx.passkey.deleteMany({ where: { id: passkeyId, userId: user.id } });
    if (!passkey || count !== 1) throw new PasskeyNotFoundError();
    const row = await tx.user.update({ where: { id: user.id }, data: { sessionsValidFrom: now } });
    await recordActivity(tx, [accountRecord("account.passkey_removed", user.id, { before: { passkey: passkey.name } }, by)], now);
    return { user: toStaffUser(row), sessionsValidFrom: now };
  });
}

export function splitTransports(text: string): string[] {
  return text.split(" ").filter(Boolean);
}
