import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { env } from "@/lib/server/env";

// Secrets the app must read back (webhook signing secrets, TOTP seeds) are
// kept sealed: AES-256-GCM under a key derived (HKDF-SHA256) from the app's
// NEXTAUTH_SECRET, one key per purpose, so a copy of the database opens
// nothing, and a value sealed for one purpose does not open as another.
// Changing NEXTAUTH_SECRET makes every sealed value unreadable.
//
// Stored form: v1.<iv>.<tag>.<ciphertext>, each base64url. The "v1." prefix
// leaves room to change the scheme later without ambiguity.

const STORED_PREFIX = "v1.";

/** A purpose's HKDF info string: it names the key, so it never changes once values are sealed with it. */
export type SealPurpose = string;

function key(purpose: SealPurpose, authSecret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", authSecret, Buffer.alloc(0), purpose, 32));
}

/**
 * `plain` sealed under `purpose`'s key. `authSecret` is the app's
 * NEXTAUTH_SECRET, this process's by default (tests seal for an app running
 * in another process).
 */
export function seal(purpose: SealPurpose, plain: string, authSecret = env().authSecret): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(purpose, authSecret), iv);
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return STORED_PREFIX + [iv, cipher.getAuthTag(), sealed].map((part) => part.toString("base64url")).join(".");
}

/** Why a sealed value cannot be opened: not in a known form, or sealed under another key. */
export class UnsealError extends Error {
  override name = "UnsealError";

  constructor(readonly reason: "malformed" | "wrong-key") {
    super(reason === "malformed" ? "the sealed value is not in a known form" : "the sealed value cannot be opened with this key");
  }
}

/** The plain text of a value `seal` made with the same purpose and secret; throws UnsealError otherwise. */
export function unseal(purpose: SealPurpose, stored: string, authSecret = env().authSecret): string {
  const [iv, tag, sealed, extra] = stored.startsWith(STORED_PREFIX) ? stored.slice(STORED_PREFIX.length).split(".") : [];
  if (!iv || !tag || sealed === undefined || extra !== undefined) throw new UnsealError("malformed");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key(purpose, authSecret), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(sealed, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new UnsealError("wrong-key");
  }
}
