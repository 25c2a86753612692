import { env } from "@/lib/server/env";
import type { LinkPurpose } from "@/lib/validations/user-options";

// Where a one-time link's page is: /join/<secret> for an invitation,
// /reset-password/<secret> for a reset. The secret is the path's last segment,
// where the pages' routes read it; whatever logs request paths must leave
// these two out.

export const LINK_PATHS: Record<LinkPurpose, string> = { invitation: "/join", password_reset: "/reset-password" };

/**
 * The link to send: e.g. https://plants.example/join/<secret>. It leads to
 * NEXTAUTH_URL, the app's public address, when it is set (always, when email
 * is: lib/server/env.ts). Otherwise to `shownAt`, the origin of the owner's
 * page that made the link, which is where the owner reaches the app; and from
 * the CLI, to this machine on PORT.
 */
export function accountLinkUrl(purpose: LinkPurpose, secret: string, shownAt?: string): string {
  const base = (env().authUrl ?? shownAt ?? `http://localhost:${env().port}`).replace(/\/+$/, "");
  return `${base}${LINK_PATHS[purpose]}/${secret}`;
}
