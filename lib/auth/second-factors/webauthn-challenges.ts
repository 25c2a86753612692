import { randomBytes, randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";

// WebAuthn challenges (issue 24): each ceremony's random challenge is kept in
// the database, not in the browser's hands, so that any instance can check the
// answer, and each is taken once. A challenge lives five minutes, the time a
// person needs to touch a key or unlock a phone (the spec's recommended
// timeouts are of that order, §15.1); one taken, or found expired, is deleted.

export const CHALLENGE_LIFETIME_MS = 5 * 60 * 1000;

export type ChallengePurpose = "registration" | "authentication";

/** A challenge handed to a browser: its row's id (the browser sends it back) and the challenge itself, base64url. */
export type IssuedChallenge = { id: string; challenge: string };

/**
 * Makes a challenge for `purpose`, bound to the person registering (a sign-in's
 * has no person: the passkey names them). Expired challenges are swept on the
 * way, so the table holds only those of the last five minutes.
 */
export async function issueChallenge(purpose: ChallengePurpose, userId: string | null, now = new Date()): Promise<IssuedChallenge> {
  const issued = { id: randomUUID(), challenge: randomBytes(32).toString("base64url") };
  await db().webAuthnChallenge.deleteMany({ where: { expiresAt: { lte: now } } });
  await db().webAuthnChallenge.create({
    data: { ...issued, purpose, userId, expiresAt: new Date(now.getTime() + CHALLENGE_LIFETIME_MS), createdAt: now },
  });
  return issued;
}

/**
 * The challenge with this id, taken: deleted whatever the outcome, so it never
 * answers twice. null when it does not exist (never issued, or already taken,
 * by this request or a racing one: only the request whose delete removed the
 * row gets it), has expired, or was issued for another purpose or person.
 */
export async function takeChallenge(id: string, purpose: ChallengePurpose, userId: string | null, now = new Date()): Promise<string | null> {
  const row = await db().webAuthnChallenge.findUnique({ where: { id } });
  if (!row) return null;
  const { count } = await db().webAuthnChallenge.deleteMany({ where: { id } });
  if (count !== 1) return null;
  if (row.purpose !== purpose || row.userId !== userId || row.expiresAt.getTime() <= now.getTime()) return null;
  return row.challenge;
}
