import { afterAll, describe, expect, it } from "vitest";
import { beginPasskeySignIn } from "@/lib/auth/second-factors/passkey-sign-in";
import type { RelyingParty } from "@/lib/auth/second-factors/passkey-relying-party";
import { db } from "@/lib/db/client";
import { closeRateLimits } from "@/lib/http/rate-limit";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";

// Passkey sign-in challenges asked for from one client address are limited
// (RATE_LIMIT_PASSKEY_CHALLENGE_ADDRESS), on a real database of the run's
// engine: the sign-in page asks for one unauthenticated, and each is a row
// for five minutes, so past the allowance no row may be written.

setUpTestDatabase({ env: () => ({ RATE_LIMIT_PASSKEY_CHALLENGE_ADDRESS: "3/1m" }) });

// After hooks run last first: the counters' connections close before the database is dropped.
afterAll(async () => {
  await closeRateLimits();
});

const RP: RelyingParty = { id: "plants.example", origin: "https://plants.example", name: "Plant Store" };

const challengeRows = () => db().webAuthnChallenge.count({ where: { purpose: "authentication" } });

describe("passkey sign-in challenges per client address", () => {
  it("makes the allowance's challenges, then refuses the next with the wait and writes no row; other addresses go on", async () => {
    const before = await challengeRows();
    for (let i = 0; i < 3; i++) expect(await beginPasskeySignIn(RP, "198.51.100.7")).toMatchObject({ challengeId: expect.any(String) });
    expect(await challengeRows()).toBe(before + 3);

    const refused = await beginPasskeySignIn(RP, "198.51.100.7");
    expect(refused).toEqual({ waitSeconds: expect.any(Number) });
    expect("waitSeconds" in refused && refused.waitSeconds).toBeGreaterThanOrEqual(1);
    expect("waitSeconds" in refused && refused.waitSeconds).toBeLessThanOrEqual(60);
    // Refusals keep being refused, and none writes.
    expect(await beginPasskeySignIn(RP, "198.51.100.7")).toEqual({ waitSeconds: expect.any(Number) });
    expect(await challengeRows()).toBe(before + 3);

    expect(await beginPasskeySignIn(RP, "198.51.100.8")).toMatchObject({ challengeId: expect.any(String) });
    expect(await challengeRows()).toBe(before + 4);
  });

  it("counts challenges made at once: of many racing from one address, only the allowance's are made", async () => {
    const before = await challengeRows();
    const answers = await Promise.all(Array.from({ length: 10 }, () => beginPasskeySignIn(RP, "2001:db8::1")));
    expect(answers.filter((answer) => "challengeId" in answer)).toHaveLength(3);
    expect(answers.filter((answer) => "waitSeconds" in answer)).toHaveLength(7);
    expect(await challengeRows()).toBe(before + 3);
  });
});
