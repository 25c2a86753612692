import type { OAuthConfig } from "next-auth/providers/oauth";
import type { SsoClaims } from "@/lib/auth/single-sign-on/sso-sign-in";
import type { SingleSignOnConfig } from "@/lib/server/single-sign-on-config";

// next-auth's OpenID Connect provider for the store's own (issue 34), id
// "oidc", so its callback is <NEXTAUTH_URL>/api/auth/callback/oidc. The
// authorization code flow with PKCE (S256), state and nonce, each kept in an
// encrypted cookie of next-auth's and checked at the callback; the ID token's
// signature (against the provider's published keys), issuer, audience, expiry
// and nonce are checked by openid-client before anything of ours runs. The
// claims then decide who gets in (lib/auth/single-sign-on/sso-sign-in.ts).

export const SSO_PROVIDER_ID = "oidc";

// next-auth's default is 3.5 s for discovery, the token and the keys; a provider across the world, or a
// loaded machine, takes longer, and a person waiting on the button is better served by a late answer.
const PROVIDER_TIMEOUT_MS = 15_000;

export function ssoProvider(config: Extract<SingleSignOnConfig, { state: "on" }>): OAuthConfig<SsoClaims & { sub: string }> {
  return {
    id: SSO_PROVIDER_ID,
    name: config.name,
    type: "oauth",
    wellKnown: `${config.issuer}/.well-known/openid-configuration`,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    authorization: { params: { scope: "openid email profile" } },
    checks: ["pkce", "state", "nonce"],
    idToken: true,
    httpOptions: { timeout: PROVIDER_TIMEOUT_MS },
    // Who this is decided by the signIn callback (auth-options.ts), which replaces the id with the account's.
    profile: (claims) => ({ id: claims.sub, email: typeof claims.email === "string" ? claims.email : null, name: typeof claims.name === "string" ? claims.name : null }),
  };
}
