import { createHash, randomBytes } from "node:crypto";

// Recovery codes: single-use stand-ins for the authenticator app, shown once
// and kept only as SHA-256 digests. Each is 10 characters of RFC 4648's
// base32 alphabet (50 random bits), shown as two groups of five; a guess is
// rate limited as a sign-in (lib/auth/second-factors/second-factor.ts), so 50 bits is far
// beyond reach, and a digest needs no salt: the codes are random, not chosen.

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const CHARACTERS = 10;

/** `RECOVERY_CODE_COUNT` new codes, as shown: "ABCDE-FGH23". */
export function generateRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    // 32 symbols divide 256 evenly: each byte's low five bits are uniform.
    const characters = [...randomBytes(CHARACTERS)].map((byte) => ALPHABET[byte % ALPHABET.length]).join("");
    return `${characters.slice(0, 5)}-${characters.slice(5)}`;
  });
}

/** The code as typed, without what people add or drop (case, spaces, the dash), or null if it cannot be a recovery code. */
export function normalizeRecoveryCode(typed: string): string | null {
  const code = typed.replace(/[\s-]/g, "").toUpperCase();
  return code.length === CHARACTERS && [...code].every((character) => ALPHABET.includes(character)) ? code : null;
}

/** The digest kept for a code (normalized first), hex. */
export function hashRecoveryCode(code: string): string {
  return createHash("sha256").update(code).digest("hex");
}
