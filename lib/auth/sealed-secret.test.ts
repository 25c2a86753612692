import { describe, expect, it } from "vitest";
import { seal, UnsealError, unseal } from "@/lib/auth/sealed-secret";

// The sealing shared by webhook secrets and TOTP seeds: what it seals opens
// again under the same purpose and app secret, and under no other.

const APP_SECRET = "an app secret of the tests, 32+ chars long";

describe("sealing", () => {
  it("opens what it sealed, and only under the same purpose and app secret", () => {
    const sealed = seal("plant-store tests", "JBSWY3DPEHPK3PXP", APP_SECRET);
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain("JBSWY3DPEHPK3PXP");
    expect(unseal("plant-store tests", sealed, APP_SECRET)).toBe("JBSWY3DPEHPK3PXP");
    // A fresh IV each time: the same secret never seals the same way twice.
    expect(seal("plant-store tests", "JBSWY3DPEHPK3PXP", APP_SECRET)).not.toBe(sealed);
    expect(() => unseal("plant-store other purpose", sealed, APP_SECRET)).toThrow(new UnsealError("wrong-key"));
    expect(() => unseal("plant-store tests", sealed, `${APP_SECRET}!`)).toThrow(new UnsealError("wrong-key"));
  });

  it("refuses what is not in its form, or was changed", () => {
    const sealed = seal("plant-store tests", "a secret", APP_SECRET);
    expect(() => unseal("plant-store tests", "a secret", APP_SECRET)).toThrow(new UnsealError("malformed"));
    expect(() => unseal("plant-store tests", `${sealed}.more`, APP_SECRET)).toThrow(new UnsealError("malformed"));
    const [version, iv, tag, body] = sealed.split(".") as [string, string, string, string];
    const flipped = body.startsWith("A") ? `B${body.slice(1)}` : `A${body.slice(1)}`;
    expect(() => unseal("plant-store tests", [version, iv, tag, flipped].join("."), APP_SECRET)).toThrow(new UnsealError("wrong-key"));
  });
});
