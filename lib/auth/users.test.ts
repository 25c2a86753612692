import { describe, expect, it } from "vitest";
import { authenticate, createFirstOwner, createUser, EmailTakenError, hasAnyUser } from "@/lib/auth/users";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";

// Against a real SQLite file of its own.
setUpTestDatabase();

describe("accounts", () => {
  it("lets exactly one of many racing first-run setups create the owner", async () => {
    expect(await hasAnyUser()).toBe(false);
    const attempts = await Promise.all(
      ["a", "b", "c", "d", "e", "f", "g", "h"].map((who) => createFirstOwner({ email: `${who}@example.com`, name: who, password: "correct horse battery" })),
    );
    expect(attempts.filter((owner) => owner !== null)).toHaveLength(1);
    expect(await hasAnyUser()).toBe(true);
    expect(await createFirstOwner({ email: "late@example.com", name: "late", password: "correct horse battery" })).toBeNull();
  });

  it("stores a salted argon2id hash and signs in by email, case-insensitively", async () => {
    const user = await createUser({ email: "sam@example.com", name: "Sam", role: "staff", password: "a long passphrase" });
    expect(await authenticate("  SAM@example.com ", "a long passphrase")).toEqual(user);
    expect(await authenticate("sam@example.com", "a long passphrase!")).toBeNull();
    expect(await authenticate("nobody@example.com", "a long passphrase")).toBeNull();
    await expect(createUser({ email: "sam@example.com", name: "Sam 2", role: "staff", password: "another passphrase" })).rejects.toBeInstanceOf(EmailTakenError);
  });
});
