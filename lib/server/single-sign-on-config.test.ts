import { describe, expect, it } from "vitest";
import { DEFAULT_SSO_NAME, singleSignOnConfig } from "@/lib/server/single-sign-on-config";

// Single sign-on's variables (issue 34): off without them, on with all of
// them, and otherwise misconfigured with every problem named, never thrown:
// a mistake here must not stop the app from starting.

const ON = { OIDC_ISSUER: "https://sso.shop.example/", OIDC_CLIENT_ID: "plant-store", OIDC_CLIENT_SECRET: "s3cret", NEXTAUTH_URL: "https://plants.shop.example" };

describe("single sign-on's configuration", () => {
  it("is off without its variables, whatever else is set", () => {
    expect(singleSignOnConfig({ OIDC_NAME: "Sign in with Shop", OIDC_ALLOWED_DOMAINS: "shop.example", NEXTAUTH_URL: ON.NEXTAUTH_URL })).toEqual({ state: "off" });
  });

  it("is on with the issuer, client and NEXTAUTH_URL, and names the redirect URI to register", () => {
    expect(singleSignOnConfig({ ...ON, OIDC_ALLOWED_DOMAINS: " Shop.example, branch.shop.example ," })).toEqual({
      state: "on",
      issuer: "https://sso.shop.example",
      clientId: "plant-store",
      clientSecret: "s3cret",
      name: DEFAULT_SSO_NAME,
      allowedDomains: ["shop.example", "branch.shop.example"],
      redirectUri: "https://plants.shop.example/api/auth/callback/oidc",
    });
  });

  it("is misconfigured, saying what is wrong and never the secret, when a variable is missing or wrong", () => {
    const wrong = singleSignOnConfig({ ...ON, NEXTAUTH_URL: undefined, OIDC_CLIENT_ID: undefined, OIDC_ISSUER: "http://sso.shop.example", OIDC_ALLOWED_DOMAINS: "@shop.example", OIDC_NAME: "Sign in with Shop" });
    expect(wrong).toEqual({
      state: "misconfigured",
      name: "Sign in with Shop",
      problems: [
        "OIDC_CLIENT_ID is not set: single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET",
        "OIDC_ISSUER must be an https:// URL (http://sso.shop.example): the ID tokens' keys are fetched from it",
        "NEXTAUTH_URL is not set: the redirect URI registered at the provider is <NEXTAUTH_URL>/api/auth/callback/oidc",
        'OIDC_ALLOWED_DOMAINS must list email domains such as shop.example, comma-separated; not "@shop.example"',
      ],
    });
    expect(JSON.stringify(wrong)).not.toContain("s3cret");
    expect(singleSignOnConfig({ ...ON, OIDC_ISSUER: "not a url" })).toMatchObject({ state: "misconfigured", problems: [expect.stringContaining('not "not a url"')] });
  });

  it("allows http only on this machine's loopback, for a provider in a test", () => {
    expect(singleSignOnConfig({ ...ON, OIDC_ISSUER: "http://127.0.0.1:4000" })).toMatchObject({ state: "on", issuer: "http://127.0.0.1:4000" });
  });
});
