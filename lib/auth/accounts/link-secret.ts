import { createHash, randomBytes } from "node:crypto";

// The secret of a one-time link (an invitation, a password reset): 32 random
// bytes, 256 bits, well beyond the 128 that make guessing hopeless (OWASP's
// Forgot Password Cheat Sheet), written in base64url so that it sits in a URL
// path as it is. Only its SHA-256 is stored: a fast hash is enough for a
// random secret of this size, and a copy of the database opens no account.

const SECRET_BYTES = 32;
const SECRET_SYNTAX = /^[A-Za-z0-9_-]{43}$/;

export function newLinkSecret(): string {
  return randomBytes(SECRET_BYTES).toString("base64url");
}

/** Whether text could be a link secret at all: anything else is unknown without a query. */
export function isLinkSecret(text: string): boolean {
  return SECRET_SYNTAX.test(text);
}

export function hashLinkSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}
