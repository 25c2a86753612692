import { randomUUID } from "node:crypto";
import { type ApiToken, db } from "@/lib/db/client";
import { env } from "@/lib/server/env";
import { isScope, type Scope } from "@/lib/validations/api-token";

// API bearer tokens. A token is a JWT encrypted by next-auth with the app's
// secret; it carries only the id of its database row. The row holds owner,
// label, scopes, expiry and revocation, so a revoke takes effect on the next
// request and the token itself is never stored. Checking a presented token,
// on every API request, is lib/auth/token-check.ts: the operator CLIs, which
// only manage tokens, load none of what the check needs (metrics, the direct
// reads), so that they start quickly (issue 20).

// A salt of its own gives API tokens a key of their own (next-auth derives
// the key from secret and salt), so a session cookie never works as a bearer
// token, nor a bearer token as a session.
export const TOKEN_SALT = "plant-store api token";

/** A token's record, with its scopes as a list (the row keeps them space-separated, as OAuth does). */
export type ApiTokenInfo = Omit<ApiToken, "scopes"> & { scopes: Scope[] };

export type TokenStatus = "active" | "expired" | "revoked";

export function tokenStatus(token: Pick<ApiTokenInfo, "revokedAt" | "expiresAt">, now = Date.now()): TokenStatus {
  if (token.revokedAt) return "revoked";
  return token.expiresAt.getTime() <= now ? "expired" : "active";
}

export function toInfo(row: ApiToken): ApiTokenInfo {
  return { ...row, scopes: row.scopes.split(" ").filter(isScope) };
}

export async function createApiToken(input: {
  label: string;
  scopes: Scope[];
  lifetimeSeconds: number;
  ownerId?: string | null;
}): Promise<{ token: string; info: ApiTokenInfo }> {
  const id = randomUUID();
  const now = Date.now();
  const row = await db().apiToken.create({
    data: {
      id,
      label: input.label,
      scopes: [...new Set(input.scopes)].join(" "),
      ownerId: input.ownerId ?? null,
      createdAt: new Date(now),
      expiresAt: new Date(now + input.lifetimeSeconds * 1000),
    },
  });
  // next-auth's JWT code loads when a token is made: listing and revoking need none of it (issue 20, the CLIs).
  const { encode } = await import("next-auth/jwt");
  const token = await encode({ token: { tid: id }, secret: env().authSecret, salt: TOKEN_SALT, maxAge: input.lifetimeSeconds });
  return { token, info: toInfo(row) };
}

export async function listApiTokens(filter: { ownerId?: string } = {}): Promise<ApiTokenInfo[]> {
  const rows = await db().apiToken.findMany({ where: filter, orderBy: { createdAt: "desc" } });
  return rows.map(toInfo);
}

/** Revokes a token; false when no such token exists. Revoking twice keeps the first time. */
export async function revokeApiToken(id: string): Promise<boolean> {
  const { count } = await db().apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
  if (count > 0) return true;
  return (await db().apiToken.count({ where: { id } })) > 0;
}

export async function findApiToken(id: string): Promise<ApiTokenInfo | null> {
  const row = await db().apiToken.findUnique({ where: { id } });
  return row && toInfo(row);
}
