import { decode } from "next-auth/jwt";
import { type ApiTokenInfo, TOKEN_SALT, toInfo } from "@/lib/auth/api-tokens/api-tokens";
import { db } from "@/lib/db/client";
import { dateCell, type DirectRow, directQuery, optionalDateCell, optionalStringCell, readRows, stringCell } from "@/lib/db/direct-reads";
import { env } from "@/lib/server/env";
import { describeError, log } from "@/lib/server/log";
import { metrics } from "@/lib/server/metrics";

// Whether a presented API token (lib/auth/api-tokens/api-tokens.ts) may be used now: on
// every API request, so its row is a direct read and its decryption is kept.

// Last use is recorded at this granularity, so a busy token does not cost a
// durable write on every request.
const LAST_USED_GRANULARITY_MS = 60_000;

// Decrypting a token (key derivation, then AES-GCM) costs about 0.3 ms and
// its result never changes, so the token ids of recently seen tokens are
// kept in memory. Only decryption is skipped: the row is read on every
// request, so revocation and expiry still apply at once.
const DECODED_CACHE_SIZE = 1_000;
const decodedTokenIds = new Map<string, string>();

function rememberDecoded(token: string, tokenId: string): void {
  // A Map iterates in insertion order: the first key is the oldest.
  if (decodedTokenIds.size >= DECODED_CACHE_SIZE) decodedTokenIds.delete(decodedTokenIds.keys().next().value!);
  decodedTokenIds.set(token, tokenId);
}

export type TokenCheck = { ok: true; info: ApiTokenInfo } | { ok: false; reason: "invalid" | "expired" | "revoked" | "deactivated" };

/** Decides whether a presented token is good now; the database, not the JWT, has the last word. */
export async function checkApiToken(token: string): Promise<TokenCheck> {
  const check = await decideToken(token);
  metrics().tokenChecks.inc({ outcome: check.ok ? "ok" : check.reason });
  return check;
}

async function decideToken(token: string): Promise<TokenCheck> {
  let tokenId = decodedTokenIds.get(token);
  if (tokenId === undefined) {
    try {
      const claim = (await decode({ token, secret: env().authSecret, salt: TOKEN_SALT }))?.tid;
      if (typeof claim !== "string") return { ok: false, reason: "invalid" };
      tokenId = claim;
    } catch (error) {
      const expired = error instanceof Error && "code" in error && error.code === "ERR_JWT_EXPIRED";
      return { ok: false, reason: expired ? "expired" : "invalid" };
    }
    rememberDecoded(token, tokenId);
  }
  const found = await findLiveToken(tokenId);
  if (!found) return { ok: false, reason: "invalid" };
  const { token: row, ownerDeactivated } = found;
  if (row.revokedAt) return { ok: false, reason: "revoked" };
  const now = Date.now();
  if (row.expiresAt.getTime() <= now) return { ok: false, reason: "expired" };
  if (ownerDeactivated) return { ok: false, reason: "deactivated" };
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() >= LAST_USED_GRANULARITY_MS) {
    // Bookkeeping only: the request need not wait for this write.
    db()
      .apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date(now) } })
      .catch((error: unknown) => log.warn("could not record token use", { tokenId: row.id, ...describeError(error) }));
  }
  return { ok: true, info: row };
}

// The token's row, unless its owner is gone: even where the owner's row was
// deleted with foreign keys off, so the cascade never ran, the owner's
// existence is part of the same query. So is whether the owner is
// deactivated (issue 21): the token is refused while the account is, and
// works again once it is reactivated. Every API request runs it, so it is a
// direct read (lib/db/direct-reads.ts); SQLite's kept answers are dropped at
// any commit, so a deactivation is seen by the very next request.
const LIVE_TOKEN_ROW = directQuery(`
  SELECT t."id", t."label", t."scopes", t."owner_id", t."created_at", t."expires_at", t."revoked_at", t."last_used_at",
         u."deactivated_at" AS "owner_deactivated_at"
  FROM "api_tokens" t LEFT JOIN "users" u ON u."id" = t."owner_id"
  WHERE t."id" = ? AND (t."owner_id" IS NULL OR u."id" IS NOT NULL)`);

// SQLite's reader answers with the very row object it kept while the database
// is unchanged (lib/db/direct-reads.ts), so a busy token's row is decoded
// (four dates, the scopes) once per change of the database, not per request.
const decodedRows = new WeakMap<DirectRow, ApiTokenInfo>();

async function findLiveToken(tokenId: string): Promise<{ token: ApiTokenInfo; ownerDeactivated: boolean } | undefined> {
  const [row] = await readRows(LIVE_TOKEN_ROW, [tokenId]);
  if (!row) return undefined;
  const ownerDeactivated = row.owner_deactivated_at !== null && row.owner_deactivated_at !== undefined;
  let token = decodedRows.get(row);
  if (!token) {
    token = toInfo({
      id: stringCell(row.id),
      label: stringCell(row.label),
      scopes: stringCell(row.scopes),
      ownerId: optionalStringCell(row.owner_id),
      createdAt: dateCell(row.created_at),
      expiresAt: dateCell(row.expires_at),
      revokedAt: optionalDateCell(row.revoked_at),
      lastUsedAt: optionalDateCell(row.last_used_at),
    });
    // Shared by every request while the row is unchanged: frozen, so that none can change it for the others.
    Object.freeze(token.scopes);
    decodedRows.set(row, Object.freeze(token));
  }
  return { token, ownerDeactivated };
}

