import { afterAll, describe, expect, it, vi } from "vitest";
import { LinkUnusableError, WeakPasswordError } from "@/lib/auth/account-errors";
import { acceptInvitation, createInvitation, withdrawInvitation } from "@/lib/auth/accounts/account-links";
import { newLinkSecret } from "@/lib/auth/accounts/link-secret";
import { openLinkFrom, TooManyLinkAttemptsError, tryLinkFrom } from "@/lib/auth/accounts/link-attempts";
import { closeRateLimits } from "@/lib/http/rate-limit";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// The limit on trying one-time links from one address, on a real database of
// the run's engine (PostgreSQL keeps the counters in it): links that cannot be
// used count, valid ones do not, and a spent allowance looks nothing up.

// Before anything reads the configuration: three failures per address in 15 minutes.
vi.stubEnv("RATE_LIMIT_LINK_ADDRESS", "3/15m");
setUpTestDatabase();
// After hooks run last first: the counters' connections close before the database is dropped.
afterAll(closeRateLimits);

const PASSWORD = "mossy granite kettle 42";
let addresses = 0;
const newAddress = () => `192.0.2.${++addresses}`;

describe("openLinkFrom", () => {
  it("costs nothing for a valid link, however often it is opened", async () => {
    const address = newAddress();
    const { secret } = await createInvitation({ email: "often@example.com", role: "staff" }, TEST_BY);
    for (let opening = 0; opening < 5; opening++) expect(await openLinkFrom(address, "invitation", secret)).toMatchObject({ state: "valid", link: { email: "often@example.com" } });
    expect(await openLinkFrom(address, "invitation", newLinkSecret())).toEqual({ state: "unknown" });
  });

  it("counts every link that cannot be used, then looks none up for the address until the window has passed", async () => {
    const address = newAddress();
    const used = await createInvitation({ email: "used@example.com", role: "staff" }, TEST_BY);
    await acceptInvitation(used.secret, { name: "Used", password: PASSWORD }, null);
    const withdrawn = await createInvitation({ email: "withdrawn@example.com", role: "staff" }, TEST_BY);
    await withdrawInvitation(withdrawn.link.id, TEST_BY);
    const valid = await createInvitation({ email: "valid@example.com", role: "owner" }, TEST_BY);

    expect(await openLinkFrom(address, "invitation", newLinkSecret())).toEqual({ state: "unknown" });
    expect(await openLinkFrom(address, "invitation", used.secret)).toEqual({ state: "used" });
    expect(await openLinkFrom(address, "invitation", withdrawn.secret)).toEqual({ state: "withdrawn" });
    // Even a valid link is not looked up now.
    const refused = await openLinkFrom(address, "invitation", valid.secret);
    expect(refused).toEqual({ state: "rate-limited", waitSeconds: expect.any(Number) });
    expect((refused as { waitSeconds: number }).waitSeconds).toBeGreaterThan(14 * 60);
    expect((refused as { waitSeconds: number }).waitSeconds).toBeLessThanOrEqual(15 * 60);

    // Another address is not held back by this one's failures.
    expect(await openLinkFrom(newAddress(), "invitation", valid.secret)).toMatchObject({ state: "valid" });
  });
});

describe("tryLinkFrom", () => {
  it("counts a use refused for its link, rethrown; other refusals count nothing", async () => {
    const address = newAddress();
    const { secret } = await createInvitation({ email: "weak@example.com", role: "staff" }, TEST_BY);
    for (let attempt = 0; attempt < 4; attempt++) {
      await expect(tryLinkFrom(address, () => acceptInvitation(secret, { name: "Weak", password: "password1234" }, null))).rejects.toBeInstanceOf(WeakPasswordError);
    }
    const user = await tryLinkFrom(address, () => acceptInvitation(secret, { name: "Strong", password: PASSWORD }, null));
    expect(user).toMatchObject({ email: "weak@example.com", name: "Strong" });
  });

  it("refuses without running the use once the address has spent its allowance, and says how long to wait", async () => {
    const address = newAddress();
    const { secret } = await createInvitation({ email: "late@example.com", role: "staff" }, TEST_BY);
    for (let attempt = 0; attempt < 3; attempt++) {
      const error: unknown = await tryLinkFrom(address, () => acceptInvitation(newLinkSecret(), { name: "Guess", password: PASSWORD }, null)).catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(LinkUnusableError);
    }
    const act = vi.fn(() => acceptInvitation(secret, { name: "Late", password: PASSWORD }, null));
    const error: unknown = await tryLinkFrom(address, act).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(TooManyLinkAttemptsError);
    expect((error as Error).message).toBe("Too many links tried from your address. Wait 15 minutes, then try again.");
    expect(act).not.toHaveBeenCalled();
    expect(await openLinkFrom(newAddress(), "invitation", secret)).toMatchObject({ state: "valid" });
  });
});
