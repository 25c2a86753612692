import { describe, expect, it } from "vitest";
import { openEndpointSecret, sealEndpointSecret, UnreadableSecretError } from "@/lib/webhooks/endpoint-secret";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";

// Webhook secrets kept sealed through the shared lib/auth/sealed-secret.ts:
// the stored form and the key did not change with it, so secrets sealed
// before still open.

const APP_SECRET = "an app secret of the tests, 32+ chars long";
setUpTestDatabase({ env: () => ({ NEXTAUTH_SECRET: APP_SECRET }) });

// Sealed by endpoint-secret.ts as it was before the shared module (commit 361c878), under APP_SECRET.
const SEALED_BEFORE = "v1.pnP-3xBHkAiOLIY1.fwJ9MZrdBDAlN4ln-vcFvw.SIA8L9ElwarTuVBPZnchO4_boqidVqJXrC06dGbU-JmKJ6vYVyI";

describe("an endpoint's sealed secret", () => {
  it("sealed before the shared module, still opens", () => {
    expect(openEndpointSecret(SEALED_BEFORE)).toBe("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
  });

  it("opens what it seals, and says why it cannot open the rest", () => {
    expect(openEndpointSecret(sealEndpointSecret("whsec_abc", APP_SECRET))).toBe("whsec_abc");
    expect(() => openEndpointSecret("whsec_abc")).toThrow(new UnreadableSecretError("the endpoint's secret is not in a known form"));
    expect(() => openEndpointSecret(sealEndpointSecret("whsec_abc", `${APP_SECRET}!`))).toThrow(UnreadableSecretError);
  });
});
