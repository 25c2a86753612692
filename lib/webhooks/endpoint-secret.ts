import { randomBytes } from "node:crypto";
import { seal, UnsealError, unseal } from "@/lib/auth/sealed-secret";

// An endpoint's signing secret: Standard Webhooks' whsec_ and the base64 of
// random bytes (the spec allows 24 to 64; 32, as Svix and Stripe give). It is
// shown once, when made, and kept encrypted (AES-256-GCM under a key derived
// from the app's secret), so a copy of the database does not let anyone sign
// as this app. Changing NEXTAUTH_SECRET makes every endpoint's secret
// unreadable, as it does every API token: rotate them then. The sealing is
// shared with TOTP seeds (lib/auth/sealed-secret.ts), each under its own key.

const SECRET_BYTES = 32;
const PREFIX = "whsec_";
// The key's HKDF info: fixed, so secrets sealed before the shared module still open.
const KEY_INFO = "plant-store webhook endpoint secrets";

export function generateEndpointSecret(): string {
  return `${PREFIX}${randomBytes(SECRET_BYTES).toString("base64")}`;
}

/**
 * The secret as the database keeps it (lib/auth/sealed-secret.ts's form,
 * v1.<iv>.<tag>.<ciphertext>). `authSecret` is the app's NEXTAUTH_SECRET,
 * this process's by default (tests seal for an app running in another process).
 */
export function sealEndpointSecret(secret: string, authSecret?: string): string {
  return seal(KEY_INFO, secret, authSecret);
}

export class UnreadableSecretError extends Error {
  override name = "UnreadableSecretError";
}

export function openEndpointSecret(stored: string): string {
  try {
    return unseal(KEY_INFO, stored);
  } catch (error) {
    if (!(error instanceof UnsealError)) throw error;
    if (error.reason === "malformed") throw new UnreadableSecretError("the endpoint's secret is not in a known form");
    throw new UnreadableSecretError("the endpoint's secret cannot be read with this NEXTAUTH_SECRET; rotate it");
  }
}
