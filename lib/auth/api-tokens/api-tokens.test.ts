import { expect, it } from "vitest";
import { createApiToken, findApiToken, revokeApiToken } from "@/lib/auth/api-tokens/api-tokens";
import { checkApiToken } from "@/lib/auth/api-tokens/token-check";
import { createUser } from "@/lib/auth/accounts/users";
import { db } from "@/lib/db/client";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// The check every API request makes, on a real database of the run's engine:
// the row it reads (one raw statement) must be the row Prisma's model query
// reads, types and all, and the database decides validity at once.

const database = setUpTestDatabase();

it("accepts a live token with its whole record, exactly as the model query reads it", async () => {
  const owner = await createUser({ email: "ana@example.com", name: "Ana", role: "staff", password: "a long passphrase" }, TEST_BY);
  const { token, info } = await createApiToken({ label: "till", scopes: ["plants:read", "plants:write"], lifetimeSeconds: 3600, ownerId: owner.id }, TEST_BY);
  const check = await checkApiToken(token);
  expect(check).toEqual({ ok: true, info: { ...info, lastUsedAt: null } });
  if (!check.ok) return;
  expect(check.info.expiresAt).toBeInstanceOf(Date);
  expect(check.info.createdAt).toBeInstanceOf(Date);
  // The same record as findApiToken's model query (last use aside: recorded after the check).
  expect({ ...(await findApiToken(info.id)), lastUsedAt: null }).toEqual(check.info);
  // Operator tokens have no owner and are valid all the same.
  const operator = await createApiToken({ label: "cli", scopes: ["plants:read"], lifetimeSeconds: 60 }, TEST_BY);
  expect(await checkApiToken(operator.token)).toMatchObject({ ok: true, info: { ownerId: null, scopes: ["plants:read"] } });
});

it("refuses a revoked token on its next check, an expired one, and one whose owner is gone", async () => {
  const owner = await createUser({ email: "bo@example.com", name: "Bo", role: "staff", password: "a long passphrase" }, TEST_BY);
  const revoked = await createApiToken({ label: "r", scopes: ["plants:read"], lifetimeSeconds: 3600, ownerId: owner.id }, TEST_BY);
  expect((await checkApiToken(revoked.token)).ok).toBe(true);
  await revokeApiToken(revoked.info.id, TEST_BY);
  expect(await checkApiToken(revoked.token)).toEqual({ ok: false, reason: "revoked" });

  const expiring = await createApiToken({ label: "e", scopes: ["plants:read"], lifetimeSeconds: 3600, ownerId: owner.id }, TEST_BY);
  expect((await checkApiToken(expiring.token)).ok).toBe(true);
  // The row, not the JWT, has the last word: expired in the database means expired now.
  await db().apiToken.update({ where: { id: expiring.info.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
  expect(await checkApiToken(expiring.token)).toEqual({ ok: false, reason: "expired" });

  const orphan = await createApiToken({ label: "o", scopes: ["plants:read"], lifetimeSeconds: 3600, ownerId: owner.id }, TEST_BY);
  expect((await checkApiToken(orphan.token)).ok).toBe(true);
  // Deleted behind the app's back with foreign keys off, so the cascade to the tokens never ran.
  const foreignKeysOff = database.provider === "sqlite" ? "PRAGMA foreign_keys = OFF" : "SET session_replication_role = replica";
  await database.exec(`${foreignKeysOff}; DELETE FROM users WHERE id = '${owner.id}'`);
  expect(await findApiToken(orphan.info.id)).not.toBeNull();
  expect(await checkApiToken(orphan.token)).toEqual({ ok: false, reason: "invalid" });
  expect(await checkApiToken("not a token")).toEqual({ ok: false, reason: "invalid" });
});
