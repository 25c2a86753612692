import { randomBytes, randomUUID } from "node:crypto";
import { encode } from "next-auth/jwt";
import { TOKEN_SALT } from "@/lib/auth/api-tokens/api-tokens";
import type { Scope } from "@/lib/validations/api-token";
import { recordAsCli, startAsCli } from "./cli-records";
import type { TestDatabase } from "./test-database";
import { sqlTime } from "./webhook-endpoints";

// API tokens made in the test process, as `token create` makes them
// (lib/auth/api-tokens/api-tokens.ts createApiToken): the same JWE, encrypted
// with the secret the app and the CLIs read from the same environment (on
// SQLite DATA_DIR/auth-secret, made here if no process has made it yet), under
// the same salt, and the same row and activity record, on a database migrated
// first as the CLI migrates it. Not through the CLI: a CLI process cost half a
// CPU second per token, two per HTTP file and engine (issue 31).
// test/http/create-plant.test.ts shows that the CLI's own token works against
// the app.

export async function makeApiToken(database: TestDatabase, { label, scopes, lifetimeSeconds }: { label: string; scopes: Scope[]; lifetimeSeconds: number }): Promise<string> {
  const id = randomUUID();
  const createdAt = new Date();
  const expiresAt = new Date(createdAt.getTime() + lifetimeSeconds * 1000);
  const { authSecret: secret } = await startAsCli(database);
  const token = await encode({ token: { tid: id }, secret, salt: TOKEN_SALT, maxAge: lifetimeSeconds });
  const distinct = [...new Set(scopes)];
  await database.query("INSERT INTO api_tokens (id, label, scopes, owner_id, created_at, expires_at) VALUES ($1, $2, $3, NULL, $4, $5)", [
    id,
    label,
    distinct.join(" "),
    sqlTime(database, createdAt),
    sqlTime(database, expiresAt),
  ]);
  const after = { label, scopes: distinct, expiresAt: expiresAt.toISOString(), ownerId: null };
  await recordAsCli(database, { action: "token.created", subjectKind: "token", subjectId: id, changes: { after }, at: createdAt });
  return token;
}

/** Revokes the active tokens labelled `label`, as `token revoke <id>` revokes each: revoked_at set, and its record. */
export async function revokeApiTokens(database: TestDatabase, label: string): Promise<void> {
  const at = new Date();
  const tokens = await database.query<{ id: string }>("SELECT id FROM api_tokens WHERE label = $1 AND revoked_at IS NULL", [label]);
  if (tokens.length === 0) throw new Error(`no active token labelled ${label}`);
  for (const { id } of tokens) {
    await database.query("UPDATE api_tokens SET revoked_at = $1 WHERE id = $2", [sqlTime(database, at), id]);
    const changes = { before: { revokedAt: null }, after: { revokedAt: at.toISOString() } };
    await recordAsCli(database, { action: "token.revoked", subjectKind: "token", subjectId: id, changes, at });
  }
}

/** A token as another installation makes one: encrypted with a secret of its own, for a row this one has not got. */
export function foreignApiToken(): Promise<string> {
  return encode({ token: { tid: randomUUID() }, secret: randomBytes(32).toString("base64url"), salt: TOKEN_SALT, maxAge: 3600 });
}
