import { generateSecret, generateURI, verifySync } from "otplib";
import { seal, unseal } from "@/lib/auth/sealed-secret";

// One-time codes from an authenticator app (TOTP, RFC 6238): SHA-1, six
// digits, 30-second steps, the parameters every authenticator app assumes.
// A code is accepted for its own step and one either side (RFC 6238 section
// 5.2's allowance for clock drift and typing time), and only for a step later
// than the last one accepted (section 5.2: "the verifier MUST NOT accept the
// second attempt of the OTP after the successful validation").

const ISSUER = "Plant Store";
const STEP_SECONDS = 30;
// The seed's HKDF info (lib/auth/sealed-secret.ts): fixed once seeds are sealed with it.
const SEAL_PURPOSE = "plant-store totp seeds";

/** A new seed, base32: 20 random bytes, the HMAC-SHA-1 key length RFC 4226 recommends. */
export function generateTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function totpUri(email: string, secret: string): string {
  return generateURI({ issuer: ISSUER, label: email, secret });
}

/** The seed as the database keeps it; `authSecret` as sealed-secret.ts's (tests seal for an app in another process). */
export function sealTotpSecret(secret: string, authSecret?: string): string {
  return seal(SEAL_PURPOSE, secret, authSecret);
}

export function openTotpSecret(stored: string): string {
  return unseal(SEAL_PURPOSE, stored);
}

/** Whether `code` looks like an authenticator app's code (six digits, spaces allowed) rather than a recovery code. */
export function isTotpCode(code: string): boolean {
  return /^\d{6}$/.test(code.replace(/\s/g, ""));
}

/**
 * The time step `code` belongs to, if it is the seed's code for the step of
 * `now`, or of the step before or after, and that step is later than
 * `lastUsedStep`; otherwise null.
 */
export function matchTotpCode(secret: string, code: string, lastUsedStep: bigint | null, now = new Date()): bigint | null {
  const token = code.replace(/\s/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const epoch = Math.floor(now.getTime() / 1000);
  // Every step of the window is spent (an instance whose clock is ahead accepted a later one): otplib would throw.
  if (lastUsedStep !== null && lastUsedStep >= BigInt(Math.floor(epoch / STEP_SECONDS) + 1)) return null;
  const result = verifySync({
    secret,
    token,
    epoch,
    period: STEP_SECONDS,
    // In seconds: with 30-second steps, the steps either side of now's and no further.
    epochTolerance: STEP_SECONDS,
    ...(lastUsedStep !== null && { afterTimeStep: Number(lastUsedStep) }),
  });
  // otplib's result type covers HOTP too; a TOTP match carries its step.
  return result.valid && "timeStep" in result ? BigInt(result.timeStep) : null;
}
