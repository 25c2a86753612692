// Single sign-on's configuration (issue 34): one OpenID Connect provider,
// named by the environment. Unlike the other variables, a mistake here never
// stops the app from starting: the store keeps its passwords, passkeys and
// codes, the sign-in page says the company sign-in is unavailable, and the
// start-up log names what is wrong (lib/auth/single-sign-on/sso-status.ts).

/** The variables, as the environment gives them (empty is unset). */
export type SingleSignOnVariables = {
  OIDC_ISSUER?: string;
  OIDC_CLIENT_ID?: string;
  OIDC_CLIENT_SECRET?: string;
  OIDC_NAME?: string;
  OIDC_ALLOWED_DOMAINS?: string;
  NEXTAUTH_URL?: string;
};

export type SingleSignOnConfig =
  | { state: "off" }
  | { state: "misconfigured"; name: string; problems: string[] }
  | {
      state: "on";
      /** OIDC_ISSUER as given, without a trailing slash; discovery is at <issuer>/.well-known/openid-configuration. */
      issuer: string;
      clientId: string;
      clientSecret: string;
      /** The words on the button. */
      name: string;
      /** Email domains whose verified people may join as staff; empty: none. */
      allowedDomains: string[];
      /** What the operator registers at the provider. */
      redirectUri: string;
    };

export const DEFAULT_SSO_NAME = "Sign in with your company account";

/** next-auth's callback for the provider of id "oidc": the redirect URI to register. */
export const redirectUriFor = (appUrl: string) => `${appUrl.replace(/\/+$/, "")}/api/auth/callback/oidc`;

// A domain as it follows the @ of an email: labels of letters, digits and hyphens.
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export function singleSignOnConfig(vars: SingleSignOnVariables): SingleSignOnConfig {
  const { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret } = vars;
  if (issuer === undefined && clientId === undefined && clientSecret === undefined) return { state: "off" };
  const name = vars.OIDC_NAME?.trim() || DEFAULT_SSO_NAME;
  const problems: string[] = [];
  for (const [variable, value] of [["OIDC_ISSUER", issuer], ["OIDC_CLIENT_ID", clientId], ["OIDC_CLIENT_SECRET", clientSecret]] as const) {
    if (value === undefined) problems.push(`${variable} is not set: single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET`);
  }
  if (issuer !== undefined) {
    const problem = issuerProblem(issuer);
    if (problem) problems.push(problem);
  }
  if (vars.NEXTAUTH_URL === undefined) problems.push("NEXTAUTH_URL is not set: the redirect URI registered at the provider is <NEXTAUTH_URL>/api/auth/callback/oidc");
  const allowedDomains = (vars.OIDC_ALLOWED_DOMAINS ?? "").split(",").map((domain) => domain.trim().toLowerCase()).filter(Boolean);
  const badDomains = allowedDomains.filter((domain) => !DOMAIN.test(domain));
  if (badDomains.length > 0) problems.push(`OIDC_ALLOWED_DOMAINS must list email domains such as shop.example, comma-separated; not ${badDomains.map((domain) => JSON.stringify(domain)).join(", ")}`);
  if (problems.length > 0 || issuer === undefined || clientId === undefined || clientSecret === undefined || vars.NEXTAUTH_URL === undefined) {
    return { state: "misconfigured", name, problems };
  }
  return { state: "on", issuer: issuer.replace(/\/+$/, ""), clientId, clientSecret, name, allowedDomains, redirectUri: redirectUriFor(vars.NEXTAUTH_URL) };
}

/** Why OIDC_ISSUER cannot be an issuer, or undefined: an https URL (http only on this machine's loopback, for tests), without query or fragment. */
function issuerProblem(issuer: string): string | undefined {
  if (!URL.canParse(issuer)) return `OIDC_ISSUER must be the provider's issuer URL, such as https://accounts.google.com; not ${JSON.stringify(issuer)}`;
  const url = new URL(issuer);
  const loopback = ["127.0.0.1", "[::1]", "localhost"].includes(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) return `OIDC_ISSUER must be an https:// URL (${issuer}): the ID tokens' keys are fetched from it`;
  if (url.search || url.hash) return `OIDC_ISSUER must have no query or fragment (${issuer}): discovery is at <OIDC_ISSUER>/.well-known/openid-configuration`;
  return undefined;
}
