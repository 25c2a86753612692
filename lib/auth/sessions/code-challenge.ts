import { z } from "zod";
import { seal, UnsealError, unseal } from "@/lib/auth/sealed-secret";

// Between sign-in's two steps: once the password is right for a person with
// an authenticator app, the form gets this sealed ticket instead, forgets the
// password, and sends the ticket back with the code. The ticket says whose
// password was right and until when, sealed under a key of its own
// (lib/auth/sealed-secret.ts), so nobody can make one; it opens no session by
// itself, and guessing codes with it counts against the account's sign-in
// limit like guessing passwords. It holds no password, code or seed.

const SEAL_PURPOSE = "plant-store sign-in code challenge";
// Long enough to open the app and type a code, or find the recovery codes.
const LIFETIME_MS = 5 * 60 * 1000;

const ticketSchema = z.object({ userId: z.string(), account: z.string(), expiresAt: z.number() });

/** Whose password was right: the account id, and the account's key in the sign-in limits (the email as typed, lower-cased). */
export type CodeChallenge = { userId: string; account: string };

export function issueCodeChallenge(challenge: CodeChallenge, now = new Date()): string {
  return seal(SEAL_PURPOSE, JSON.stringify({ ...challenge, expiresAt: now.getTime() + LIFETIME_MS }));
}

/** The challenge a ticket carries, or null when it is not one of ours or has expired. */
export function openCodeChallenge(ticket: string, now = new Date()): CodeChallenge | null {
  let opened: unknown;
  try {
    opened = JSON.parse(unseal(SEAL_PURPOSE, ticket));
  } catch (error) {
    if (error instanceof UnsealError || error instanceof SyntaxError) return null;
    throw error;
  }
  const parsed = ticketSchema.safeParse(opened);
  if (!parsed.success || parsed.data.expiresAt <= now.getTime()) return null;
  return { userId: parsed.data.userId, account: parsed.data.account };
}
