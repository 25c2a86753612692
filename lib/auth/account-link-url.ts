import { env } from "@/lib/server/env";
import type { LinkPurpose } from "@/lib/validations/user-options";

// Where a one-time link's page is: /join/<secret> for an invitation,
// /reset-password/<secret> for a reset. The secret is the path's last segment,
// where the pages' routes read it; whatever logs request paths must leave
// these two out.

export const LINK_PATHS: Record<LinkPurpose, string> = { invitation: "/join", password_reset: "/reset-password" };

/** The app's address as people reach it: NEXTAUTH_URL, or this machine on PORT. */
function appBaseUrl(): string {
  return (env().authUrl ?? `http://localhost:${env().port}`).replace(/\/+$/, "");
}

/** The link to send: e.g. https://plants.example/join/<secret>. */
export function accountLinkUrl(purpose: LinkPurpose, secret: string): string {
  return `${appBaseUrl()}${LINK_PATHS[purpose]}/${secret}`;
}
