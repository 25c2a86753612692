import { describe, expect, it } from "vitest";
import { relyingParty } from "@/lib/auth/second-factors/passkey-relying-party";

describe("the passkeys' relying party", () => {
  it("is NEXTAUTH_URL's host and origin, whatever host a request names", () => {
    const forged = new Headers({ host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" });
    expect(relyingParty(forged, "https://plants.shop.example/store")).toEqual({ id: "plants.shop.example", origin: "https://plants.shop.example", name: "Plant Store" });
    expect(relyingParty(new Headers(), "http://localhost:3000")).toEqual({ id: "localhost", origin: "http://localhost:3000", name: "Plant Store" });
  });

  it("without NEXTAUTH_URL, is assumed from the host the request addressed, a proxy's forwarded host first", () => {
    expect(relyingParty(new Headers({ host: "localhost:3000" }), undefined)).toMatchObject({ id: "localhost", origin: "http://localhost:3000" });
    expect(relyingParty(new Headers({ host: "10.0.0.5:3000", "x-forwarded-host": "plants.shop.example", "x-forwarded-proto": "https" }), undefined)).toMatchObject({
      id: "plants.shop.example",
      origin: "https://plants.shop.example",
    });
  });

  it("is none when NEXTAUTH_URL is unset and the request names no usable host", () => {
    expect(relyingParty(new Headers(), undefined)).toBeNull();
    expect(relyingParty(new Headers({ host: "bad host name" }), undefined)).toBeNull();
  });
});
