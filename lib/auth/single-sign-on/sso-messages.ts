import { SSO_FAILED } from "@/lib/auth/single-sign-on/sso-callback";

// What the sign-in page says when a single sign-on brought the person back
// without a session (its `error` parameter): ours (lib/auth/single-sign-on/
// sso-sign-in.ts, sso-callback.ts) and next-auth's own, for a provider that
// could not be reached or an answer that did not pass its checks. Never
// anything the provider sent.

// The provider is "the company sign-in" in sentences: OIDC_NAME is the button's own words ("Sign in with …").
const MESSAGES: Record<string, string> = {
  "sso-unverified": "Your company account's email address is not verified by your company's sign-in, so it cannot sign you in here. Ask your administrator to verify it.",
  "sso-refused": "Your company account has no account in this store. Ask an owner of the store for an invitation.",
  "sso-deactivated": "This account is deactivated. Ask an owner of the store to reactivate it.",
  [SSO_FAILED]: "The company sign-in did not work just now. Try again, or sign in with your password or a passkey.",
  // next-auth: the provider could not be reached to start (discovery, say).
  OAuthSignin: "The company sign-in is unavailable right now. Sign in with your password or a passkey.",
  // next-auth: the answer did not pass its checks (state, PKCE, the code, the ID token's signature, audience, expiry, nonce).
  OAuthCallback: "The company sign-in did not complete: its answer could not be checked. Try again.",
  Callback: "The company sign-in did not complete. Try again.",
  AccessDenied: "The company sign-in did not let you in.",
};

/** The sentence for a single sign-on's `error`, or undefined when the parameter is not one of its. */
export function ssoErrorMessage(error: string | undefined): string | undefined {
  return error !== undefined && Object.hasOwn(MESSAGES, error) ? MESSAGES[error] : undefined;
}
