import { randomUUID } from "node:crypto";
import type { Attribution } from "@/lib/activity/actor";
import { recordActivity } from "@/lib/activity/record";
import { type ApiToken, db } from "@/lib/db/client";
import { env } from "@/lib/server/env";
import { isScope, type Scope } from "@/lib/validations/api-token";

// API bearer tokens. A token is a JWT encrypted by next-auth with the app's
// secret; it carries only the id of its database row. The row holds owner,
// label, scopes, expiry and revocation, so a revoke takes effect on the next
// request and the token itself is never stored. Checking a presented token,
// on every API request, is lib/auth/api-tokens/token-check.ts: the operator CLIs, which
// only manage tokens, load none of what the check needs (metrics, the direct
// reads), so that they start quickly (issue 20). Creating and revoking are
// attributed (`by`): each writes its activity record (issue 22) in its own
// transaction, with the token's label, scopes, expiry and owner, never the
// token itself.

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

export async function createApiToken(
  input: {
    label: string;
    scopes: Scope[];
    lifetimeSeconds: number;
    ownerId?: string | null;
  },
  by: Attribution,
): Promise<{ token: string; info: ApiTokenInfo }> {
  const id = randomUUID();
  const now = new Date();
  // Encrypted before anything is stored (it needs only the id): a token that cannot be made leaves no row and no record.
  // next-auth's JWT code loads when a token is made: listing and revoking need none of it (issue 20, the CLIs).
  const { encode } = await import("next-auth/jwt");
  const token = await encode({ token: { tid: id }, secret: env().authSecret, salt: TOKEN_SALT, maxAge: input.lifetimeSeconds });
  const row = await db().$transaction(async (tx) => {
    const created = await tx.apiToken.create({
      data: {
        id,
        label: input.label,
        scopes: [...new Set(input.scopes)].join(" "),
        ownerId: input.ownerId ?? null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + input.lifetimeSeconds * 1000),
      },
    });
    const info = toInfo(created);
    const after = { label: info.label, scopes: info.scopes, expiresAt: info.expiresAt.toISOString(), ownerId: info.ownerId };
    await recordActivity(tx, [{ action: "token.created", subjectKind: "token", subjectId: id, changes: { after }, by }], now);
    return created;
  });
  return { token, info: toInfo(row) };
}

export async function listApiTokens(filter: { ownerId?: string } = {}): Promise<ApiTokenInfo[]> {
  const rows = await db().apiToken.findMany({ where: filter, orderBy: { createdAt: "desc" } });
  return rows.map(toInfo);
}

/** Revokes a token; false when no such token exists. Revoking twice keeps the first time, and records only the first. */
export async function revokeApiToken(id: string, by: Attribution): Promise<boolean> {
  const now = new Date();
  const revoked = await db().$transaction(async (tx) => {
    const { count } = await tx.apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: now } });
    if (count === 0) return false;
    const changes = { before: { revokedAt: null }, after: { revokedAt: now.toISOString() } };
    await recordActivity(tx, [{ action: "token.revoked", subjectKind: "token", subjectId: id, changes, by }], now);
    return true;
  });
  if (revoked) return true;
  return (await db().apiToken.count({ where: { id } })) > 0;
}

export async function findApiToken(id: string): Promise<ApiTokenInfo | null> {
  const row = await db().apiToken.findUnique({ where: { id } });
  return row && toInfo(row);
}
