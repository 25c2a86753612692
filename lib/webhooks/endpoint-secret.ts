import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { env } from "@/lib/server/env";

// An endpoint's signing secret: Standard Webhooks' whsec_ and the base64 of
// random bytes (the spec allows 24 to 64; 32, as Svix and Stripe give). It is
// shown once, when made, and kept encrypted (AES-256-GCM under a key derived
// from the app's secret), so a copy of the database does not let anyone sign
// as this app. Changing NEXTAUTH_SECRET makes every endpoint's secret
// unreadable, as it does every API token: rotate them then.

const SECRET_BYTES = 32;
const PREFIX = "whsec_";
const KEY_INFO = "plant-store webhook endpoint secrets";
// Versioned, so the way secrets are kept can change later without ambiguity.
const STORED_PREFIX = "v1.";

export function generateEndpointSecret(): string {
  return `${PREFIX}${randomBytes(SECRET_BYTES).toString("base64")}`;
}

function key(authSecret = env().authSecret): Buffer {
  return Buffer.from(hkdfSync("sha256", authSecret, Buffer.alloc(0), KEY_INFO, 32));
}

/**
 * The secret as the database keeps it: v1.<iv>.<tag>.<ciphertext>, base64url.
 * `authSecret` is the app's NEXTAUTH_SECRET, this process's by default (tests
 * seal for an app running in another process).
 */
export function sealEndpointSecret(secret: string, authSecret?: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(authSecret), iv);
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return STORED_PREFIX + [iv, cipher.getAuthTag(), sealed].map((part) => part.toString("base64url")).join(".");
}

export class UnreadableSecretError extends Error {
  override name = "UnreadableSecretError";
}

export function openEndpointSecret(stored: string): string {
  const [iv, tag, sealed] = stored.startsWith(STORED_PREFIX) ? stored.slice(STORED_PREFIX.length).split(".") : [];
  if (!iv || !tag || !sealed) throw new UnreadableSecretError("the endpoint's secret is not in a known form");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(sealed, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new UnreadableSecretError("the endpoint's secret cannot be read with this NEXTAUTH_SECRET; rotate it");
  }
}
