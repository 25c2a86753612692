import { addressedOrigin } from "@/lib/auth/same-origin";
import { env } from "@/lib/server/env";

// Who the passkeys belong to (WebAuthn's relying party): its id is a domain,
// and a passkey made for one domain is never offered to another, so a lookalike
// site cannot ask for it. With NEXTAUTH_URL set, the id is its host name and the
// only origin accepted is its origin. Without it, the app assumes it is served
// where each request says it addressed it (Host, or a proxy's X-Forwarded-Host
// and -Proto, as same-origin.ts reads them): the browser still checks that the
// page it runs is on that id's domain, and the server still accepts no other
// origin than the one it derived; but passkeys made at one address do not work
// at another, and a proxy that rewrites Host must forward it. Start-up warns
// once (lib/server/startup.ts).

export type RelyingParty = { id: string; origin: string; name: string };

const NAME = "Plant Store";

/** The relying party for a request with these headers; null when NEXTAUTH_URL (`publicUrl`) is unset and the request names no host. */
export function relyingParty(headers: Headers, publicUrl = env().authUrl): RelyingParty | null {
  const origin = publicUrl ? new URL(publicUrl).origin : addressedOrigin(headers);
  if (!origin || !URL.canParse(origin)) return null;
  return { id: new URL(origin).hostname, origin, name: NAME };
}

/** What start-up logs when the relying party is assumed from each request, or null when NEXTAUTH_URL says it. */
export function assumedRelyingPartyWarning(): string | null {
  if (env().authUrl) return null;
  return "NEXTAUTH_URL is not set: passkeys take their relying party id and origin from the host each request addressed; set NEXTAUTH_URL to the app's public address so that passkeys are bound to it";
}
