import { env } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import { processGlobal } from "@/lib/server/process-global";

// Whether the company sign-in can be offered now (issue 34). The sign-in page
// asks before it shows the button: a provider that is misconfigured or
// cannot be reached is said to be unavailable, and the password, passkeys and
// codes stay. The provider's discovery document is fetched at most every
// minute while it answers (every 10 s while it does not), one fetch for all
// the pages that ask meanwhile; each change of state is logged once, with why.

export type SsoStatus = { state: "off" } | { state: "available" | "unavailable"; name: string };

const CHECK_TIMEOUT_MS = 5_000;
const FRESH_MS = { available: 60_000, unavailable: 10_000 };

type Checked = { available: boolean; why: string | undefined; at: number };
type State = { last: Checked | undefined; pending: Promise<Checked> | undefined };

const state = () => processGlobal<State>("sso.status", () => ({ last: undefined, pending: undefined }));

export async function ssoStatus(now = Date.now()): Promise<SsoStatus> {
  const config = env().singleSignOn;
  if (config.state === "off") return { state: "off" };
  if (config.state === "misconfigured") return { state: "unavailable", name: config.name };
  const current = state();
  const { last } = current;
  if (last && now - last.at < FRESH_MS[last.available ? "available" : "unavailable"]) return { state: last.available ? "available" : "unavailable", name: config.name };
  current.pending ??= checkDiscovery(config.issuer).then((checked) => {
    if (checked.available !== current.last?.available) {
      if (checked.available) log.info("single sign-on is available", { issuer: config.issuer });
      else log.warn("single sign-on is unavailable: the sign-in page offers passwords and passkeys only", { issuer: config.issuer, why: checked.why });
    }
    current.last = checked;
    current.pending = undefined;
    return checked;
  });
  const checked = await current.pending;
  return { state: checked.available ? "available" : "unavailable", name: config.name };
}

/** Whether the issuer's discovery document answers, and names this issuer with the endpoints a sign-in needs. */
async function checkDiscovery(issuer: string): Promise<Checked> {
  const url = `${issuer}/.well-known/openid-configuration`;
  const checked = (why?: string): Checked => ({ available: why === undefined, why, at: Date.now() });
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS), redirect: "error" });
    if (!response.ok) return checked(`${url} answered ${response.status}`);
    const metadata = (await response.json()) as Record<string, unknown>;
    const named = typeof metadata.issuer === "string" ? metadata.issuer.replace(/\/+$/, "") : undefined;
    if (named !== issuer) return checked(`${url} names the issuer ${JSON.stringify(metadata.issuer)}, not OIDC_ISSUER (${issuer})`);
    const missing = ["authorization_endpoint", "token_endpoint", "jwks_uri"].filter((key) => typeof metadata[key] !== "string");
    if (missing.length > 0) return checked(`${url} lacks ${missing.join(", ")}`);
    return checked();
  } catch (error) {
    const cause = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    return checked(`${url} could not be read: ${cause}`);
  }
}

/** At start: the redirect URI to register at the provider, or what is wrong with the configuration. */
export function logSingleSignOnAtStart(): void {
  const config = env().singleSignOn;
  if (config.state === "on") log.info("single sign-on", { provider: config.name, issuer: config.issuer, redirectUri: config.redirectUri });
  else if (config.state === "misconfigured") log.warn("single sign-on is off: its configuration is incomplete", { problems: config.problems });
}
