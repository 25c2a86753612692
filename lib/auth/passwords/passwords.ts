import { hash, verify } from "@node-rs/argon2";

// Staff passwords are stored only as argon2id hashes (RFC 9106), with the
// library's defaults (19 MiB, 2 passes: OWASP's recommended minimum). The PHC
// string records its own parameters and salt, so they can be raised later
// without breaking stored hashes.

export async function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash verifies nothing.
    return false;
  }
}

// Verified against when the email is unknown, so a wrong email costs the same
// time as a wrong password and response times do not reveal who has an account.
let decoy: Promise<string> | undefined;

export async function spendVerifyTime(password: string): Promise<void> {
  decoy ??= hash("decoy password, never valid");
  await verifyPassword(await decoy, password);
}
