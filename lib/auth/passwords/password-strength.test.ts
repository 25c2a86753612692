import { describe, expect, it } from "vitest";
import { WeakPasswordError } from "@/lib/auth/account-errors";
import { passwordWeakness, requireStrongPassword } from "@/lib/auth/passwords/password-strength";

// zxcvbn's judgement with the dictionaries the app loads. The examples are
// clear cases on either side of the bar (score 3), not its edge.

const ANA = { email: "ana.lopez@plants.example", name: "Ana Lopez" };

describe("password strength", () => {
  it.for([
    ["password1234", "password is too easy to guess: this is similar to a commonly used password"],
    ["qwertyuiop12", "password is too easy to guess: this is similar to a commonly used password"],
    ["aaaaaaaaaaaa", 'password is too easy to guess: repeated characters like "aaa" are easy to guess'],
  ] as const)("refuses %j, saying why", async ([password, message]) => {
    expect(await passwordWeakness(password, ANA)).toBe(message);
  });

  it("refuses the account's own email or name, and the store's name, saying so", async () => {
    const florentina = { email: "florentina.blackwood@plants.example", name: "Florentina Blackwood" };
    const personal = "password is too easy to guess: it contains the account's name or email, or the store's name";
    for (const password of ["florentina.blackwood@plants.example", "Florentina Blackwood", "florentinablackwood", "Blackwood2024!", "plantstore123"]) {
      expect(await passwordWeakness(password, florentina)).toBe(personal);
    }
    // The same words are fine for someone else: it is the account's own that are refused.
    expect(await passwordWeakness("Florentina Blackwood", { email: "bo@example.com", name: "Bo" })).toBeUndefined();
  });

  it.for(["correct horse battery staple", "mossy granite kettle 42", "purple-otter-drums-loudly"])("accepts %j", async (password) => {
    expect(await passwordWeakness(password, ANA)).toBeUndefined();
  });

  it("throws WeakPasswordError with the reason", async () => {
    await expect(requireStrongPassword("iloveyou1234", ANA)).rejects.toThrow(new WeakPasswordError("password is too easy to guess: this is similar to a commonly used password"));
    await expect(requireStrongPassword("correct horse battery staple", ANA)).resolves.toBeUndefined();
  });
});
