import { randomUUID } from "node:crypto";
import { userInfo } from "node:os";
import { describe, expect, it, vi } from "vitest";
import { type Attribution, personActor } from "@/lib/activity/actor";
import { cliAttribution } from "@/lib/activity/cli-attribution";
import { type ActivityEntry, subjectHistory } from "@/lib/activity/history";
import type { SubjectKind } from "@/lib/activity/record";
import { createApiToken, findApiToken, revokeApiToken } from "@/lib/auth/api-tokens/api-tokens";
import { revokeTokenFor } from "@/lib/auth/api-tokens/token-access";
import type { StaffUser } from "@/lib/auth/accounts/users";
import { db } from "@/lib/db/client";
import { createPlant } from "@/lib/plants/plant-queries";
import { claimDueDeliveries } from "@/lib/webhooks/delivery-claims";
import { DISABLED_WITH_CLI_REASON, disabledByOwnerReason } from "@/lib/webhooks/disabled-reason";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  disableWebhookEndpoint,
  editWebhookEndpoint,
  enableWebhookEndpoint,
  findWebhookEndpoint,
  ROTATION_OVERLAP_MS,
  rotateWebhookEndpointSecret,
} from "@/lib/webhooks/endpoints";
import { FAILING_ENDPOINT_MS, FAILING_REASON, GONE_REASON, recordAttempt } from "@/lib/webhooks/record-attempt";
import { WebhookTargetError } from "@/lib/webhooks/target-address";
import { setUpTestDatabase } from "@/test/support/set-up-test-database";
import { TEST_BY } from "@/test/support/test-attribution";

// The activity record of API tokens and webhook endpoints (issue 22) on a real
// database of the run's engine: one record per change, with who made it (a
// person, an operator at the CLI, the app itself) and what changed; never a
// secret; none for a change refused or that changed nothing; and the record
// and its change commit together.

vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_TARGETS", "true");
const database = setUpTestDatabase();

const ORIGIN = { clientAddress: "203.0.113.7", userAgent: "Mozilla/5.0 (X11; Linux x86_64)", requestId: null };
const SCHEDULE = [0, 60_000];
let nextPlant = 1n;

const history = async (kind: SubjectKind, id: string): Promise<ActivityEntry[]> => (await subjectHistory(kind, id, { limit: 100 })).entries;
const count = async () => Number((await database.query<{ n: unknown }>("SELECT count(*) AS n FROM activity"))[0]!.n);
/** Every record's changes as stored, to search for what must never be there. */
const storedChanges = async () => (await database.query<{ changes: string }>("SELECT changes FROM activity")).map((row) => row.changes).join("\n");

/** A staff member, and their changes' attribution from a browser. The row is put straight in: making accounts records changes of its own, not these. */
async function person(name: string, role: StaffUser["role"]): Promise<{ user: StaffUser; by: Attribution }> {
  const user: StaffUser = { id: randomUUID(), email: `${name.toLowerCase()}-${randomUUID()}@plants.example`, name, role };
  await db().user.create({ data: { ...user, passwordHash: "not a password hash" } });
  return { user, by: { actor: personActor(user), origin: ORIGIN } };
}

async function endpoint(path: string, by: Attribution = TEST_BY) {
  return createWebhookEndpoint({ url: `http://127.0.0.1:9/${path}`, events: ["plant.created", "plant.deleted"], description: "till sync" }, by);
}

/** An endpoint with one delivery claimed by the worker, for the app to disable. */
async function claimedDelivery(path: string) {
  const { endpoint: created } = await endpoint(path);
  await createPlant({ id: nextPlant++, name: "Delivered" }, TEST_BY);
  // The other tests' endpoints are sent the plant too: only this one's delivery is to be claimed.
  await db().webhookDelivery.deleteMany({ where: { endpointId: { not: created.id } } });
  const claim = await claimDueDeliveries(1);
  expect(claim.ids).toHaveLength(1);
  return { id: claim.ids[0]!, endpointId: created.id, attempts: 0, claimedUntil: claim.until };
}

describe("API tokens' activity", () => {
  it("records a token created and revoked, with who did it, its owner, and never the token", async () => {
    const { user: olive, by: oliveBy } = await person("Olive", "owner");
    const { token, info } = await createApiToken({ label: "till", scopes: ["plants:read", "plants:write", "plants:read"], lifetimeSeconds: 3600, ownerId: olive.id }, oliveBy);
    expect(await revokeTokenFor(olive, info.id, oliveBy)).toBe(true);

    const [revoked, created] = await history("token", info.id);
    expect(created).toMatchObject({
      action: "token.created",
      subjectKind: "token",
      subjectId: info.id,
      actor: { kind: "person", userId: olive.id, tokenId: null, name: "Olive" },
      origin: ORIGIN,
    });
    expect(created!.changes).toEqual({ after: { label: "till", scopes: ["plants:read", "plants:write"], expiresAt: info.expiresAt.toISOString(), ownerId: olive.id } });
    const revokedAt = (await findApiToken(info.id))!.revokedAt!;
    expect(revoked).toMatchObject({ action: "token.revoked", actor: { kind: "person", userId: olive.id } });
    expect(revoked!.changes).toEqual({ before: { revokedAt: null }, after: { revokedAt: revokedAt.toISOString() } });
    expect(revoked!.occurredAt).toEqual(revokedAt);

    const stored = await storedChanges();
    expect(stored).not.toContain(token);
    for (const part of token.split(".").filter((each) => each.length >= 16)) expect(stored).not.toContain(part);
  });

  it("records a token an operator made at the CLI as the CLI's, named by the OS user, with no owner", async () => {
    const { info } = await createApiToken({ label: "ci deploy", scopes: ["plants:write"], lifetimeSeconds: 60 }, cliAttribution());
    const [created] = await history("token", info.id);
    expect(created).toMatchObject({ actor: { kind: "cli", userId: null, tokenId: null, name: userInfo().username }, origin: { clientAddress: null, userAgent: null, requestId: null } });
    expect(created!.changes.after).toMatchObject({ label: "ci deploy", ownerId: null });
  });

  it("records nothing for a revoke refused, of no token, or of one already revoked", async () => {
    const { user: olive, by: oliveBy } = await person("Olive", "owner");
    const { user: sam, by: samBy } = await person("Sam", "staff");
    const { info } = await createApiToken({ label: "olive's", scopes: ["plants:read"], lifetimeSeconds: 3600, ownerId: olive.id }, oliveBy);
    const before = await count();
    // Sam is staff, not an owner: Olive's token is not his to revoke.
    expect(await revokeTokenFor(sam, info.id, samBy)).toBe(false);
    expect((await findApiToken(info.id))!.revokedAt).toBeNull();
    expect(await revokeApiToken("no-such-token", oliveBy)).toBe(false);
    expect(await count()).toBe(before);

    expect(await revokeApiToken(info.id, oliveBy)).toBe(true);
    expect(await revokeApiToken(info.id, TEST_BY)).toBe(true);
    expect(await count()).toBe(before + 1);
    expect((await history("token", info.id)).map((entry) => entry.action)).toEqual(["token.revoked", "token.created"]);
  });
});

describe("webhook endpoints' activity", () => {
  it("records an endpoint created, disabled, enabled, rotated and deleted, with who did each, and no secret", async () => {
    const { user: olive, by: oliveBy } = await person("Olive", "owner");
    const { endpoint: created, secret } = await endpoint("hooks", oliveBy);
    const reason = disabledByOwnerReason(olive.email);
    expect(await disableWebhookEndpoint(created.id, reason, oliveBy)).toBe(true);
    expect(await enableWebhookEndpoint(created.id, cliAttribution())).toBe(true);
    const newSecret = await rotateWebhookEndpointSecret(created.id, oliveBy);
    const rotating = (await findWebhookEndpoint(created.id))!.previousSecretExpiresAt!;
    const sealed = await database.query<{ secret: string; previous_secret: string }>("SELECT secret, previous_secret FROM webhook_endpoints WHERE id = $1", [created.id]);
    expect(await deleteWebhookEndpoint(created.id, oliveBy)).toBe(true);

    const entries = await history("webhook", created.id);
    expect(entries.map((entry) => entry.action)).toEqual(["webhook.deleted", "webhook.rotated", "webhook.enabled", "webhook.disabled", "webhook.created"]);
    const [deleted, rotated, enabled, disabled, made] = entries;
    const olivePerson = { kind: "person", userId: olive.id, tokenId: null, name: "Olive" };
    expect(made).toMatchObject({ subjectKind: "webhook", subjectId: created.id, actor: olivePerson, origin: ORIGIN });
    expect(made!.changes).toEqual({ after: { url: "http://127.0.0.1:9/hooks", description: "till sync", events: ["plant.created", "plant.deleted"], enabled: true } });
    expect(disabled!.actor).toEqual(olivePerson);
    expect(disabled!.changes).toEqual({ before: { enabled: true, disabledReason: null }, after: { enabled: false, disabledReason: reason } });
    expect(enabled!.actor).toEqual({ kind: "cli", userId: null, tokenId: null, name: userInfo().username });
    expect(enabled!.changes).toEqual({ before: { enabled: false, disabledReason: reason }, after: { enabled: true, disabledReason: null } });
    // A rotation says until when the secret before it is still accepted, and nothing of either secret.
    expect(rotated!.actor).toEqual(olivePerson);
    expect(rotated!.changes).toEqual({ before: { previousSecretExpiresAt: null }, after: { previousSecretExpiresAt: rotating.toISOString() } });
    expect(rotating.getTime() - rotated!.occurredAt.getTime()).toBe(ROTATION_OVERLAP_MS);
    expect(deleted!.actor).toEqual(olivePerson);
    expect(deleted!.changes).toEqual({
      before: {
        url: "http://127.0.0.1:9/hooks",
        description: "till sync",
        events: ["plant.created", "plant.deleted"],
        enabled: true,
        disabledReason: null,
        createdAt: created.createdAt.toISOString(),
      },
    });

    const stored = await storedChanges();
    for (const text of [secret, secret.slice("whsec_".length), newSecret!, newSecret!.slice("whsec_".length), sealed[0]!.secret, sealed[0]!.previous_secret]) {
      expect(stored).not.toContain(text);
    }
  });

  it("records an endpoint's URL, description and events changed, only what changed; nothing when nothing changes or the new URL is refused", async () => {
    const { user: olive, by: oliveBy } = await person("Olive", "owner");
    const { endpoint: created } = await endpoint("edited");
    const failingSince = new Date(Date.now() - 60_000);
    await db().webhookEndpoint.update({ where: { id: created.id }, data: { failingSince } });

    // The description alone: the failures stay, the URL being the same receiver's.
    expect(await editWebhookEndpoint(created.id, { url: created.url, events: created.events, description: "till and shop" }, oliveBy)).toBe(true);
    expect(await findWebhookEndpoint(created.id)).toMatchObject({ description: "till and shop", failingSince });
    // The URL and the events: a new receiver starts with no failures; enabled as it was.
    expect(await editWebhookEndpoint(created.id, { url: "http://127.0.0.1:9/moved", events: ["plant.updated"], description: "till and shop" }, cliAttribution())).toBe(true);
    expect(await findWebhookEndpoint(created.id)).toMatchObject({ url: "http://127.0.0.1:9/moved", events: ["plant.updated"], failingSince: null, enabled: true });

    const [moved, described] = await history("webhook", created.id);
    expect(described).toMatchObject({ action: "webhook.changed", actor: { kind: "person", userId: olive.id, name: "Olive" } });
    expect(described!.changes).toEqual({ before: { description: "till sync" }, after: { description: "till and shop" } });
    expect(moved).toMatchObject({ action: "webhook.changed", actor: { kind: "cli", name: userInfo().username } });
    expect(moved!.changes).toEqual({
      before: { url: "http://127.0.0.1:9/edited", events: ["plant.created", "plant.deleted"] },
      after: { url: "http://127.0.0.1:9/moved", events: ["plant.updated"] },
    });

    // The same again (events in another order are the same events), a refused URL, an endpoint that is not there: nothing written.
    const before = await count();
    expect(await editWebhookEndpoint(created.id, { url: "http://127.0.0.1:9/moved", events: ["plant.updated", "plant.updated"], description: "till and shop" }, TEST_BY)).toBe(true);
    await expect(editWebhookEndpoint(created.id, { url: "http://user:secret@127.0.0.1:9/moved", events: ["plant.updated"], description: "" }, TEST_BY)).rejects.toEqual(
      new WebhookTargetError("url must not carry a user name or password"),
    );
    expect(await editWebhookEndpoint(randomUUID(), { url: "http://127.0.0.1:9/x", events: ["plant.created"], description: "" }, TEST_BY)).toBe(false);
    expect(await count()).toBe(before);
    expect(await findWebhookEndpoint(created.id)).toMatchObject({ url: "http://127.0.0.1:9/moved", description: "till and shop" });
  });

  it("records a second rotation's end of the first's overlap as its before", async () => {
    const { endpoint: created } = await endpoint("twice");
    await rotateWebhookEndpointSecret(created.id, TEST_BY);
    const first = (await findWebhookEndpoint(created.id))!.previousSecretExpiresAt!;
    await rotateWebhookEndpointSecret(created.id, TEST_BY);
    const second = (await findWebhookEndpoint(created.id))!.previousSecretExpiresAt!;
    const [latest] = await history("webhook", created.id);
    expect(latest!.changes).toEqual({ before: { previousSecretExpiresAt: first.toISOString() }, after: { previousSecretExpiresAt: second.toISOString() } });
  });

  it("records an owner disabling an endpoint the app disabled as the reason changing, and nothing when nothing changes", async () => {
    const { endpoint: created } = await endpoint("again");
    await disableWebhookEndpoint(created.id, GONE_REASON, TEST_BY);
    await disableWebhookEndpoint(created.id, DISABLED_WITH_CLI_REASON, TEST_BY);
    const [latest] = await history("webhook", created.id);
    expect(latest!.changes).toEqual({ before: { disabledReason: GONE_REASON }, after: { disabledReason: DISABLED_WITH_CLI_REASON } });

    const before = await count();
    expect(await disableWebhookEndpoint(created.id, DISABLED_WITH_CLI_REASON, TEST_BY)).toBe(true);
    expect(await enableWebhookEndpoint(created.id, TEST_BY)).toBe(true);
    expect(await enableWebhookEndpoint(created.id, TEST_BY)).toBe(true);
    expect(await count()).toBe(before + 1);
  });

  it("records nothing for a change refused or made to no endpoint", async () => {
    const before = await count();
    await expect(createWebhookEndpoint({ url: "http://olive:secret@127.0.0.1:9/hooks", events: ["plant.created"], description: "" }, TEST_BY)).rejects.toThrow(
      "url must not carry a user name or password",
    );
    expect(await disableWebhookEndpoint("no-such-endpoint", DISABLED_WITH_CLI_REASON, TEST_BY)).toBe(false);
    expect(await enableWebhookEndpoint("no-such-endpoint", TEST_BY)).toBe(false);
    expect(await rotateWebhookEndpointSecret("no-such-endpoint", TEST_BY)).toBeNull();
    expect(await deleteWebhookEndpoint("no-such-endpoint", TEST_BY)).toBe(false);
    expect(await count()).toBe(before);
  });

  it("records the app disabling an endpoint after a 410 Gone, and after 5 days of failures, as the app's doing", async () => {
    const gone = await claimedDelivery("gone");
    const goneAt = new Date();
    expect((await recordAttempt(gone, { status: 410, durationMs: 3 }, { schedule: SCHEDULE, now: goneAt })).disabled).toBe(GONE_REASON);
    const [goneRecord] = await history("webhook", gone.endpointId);
    expect(goneRecord).toMatchObject({
      action: "webhook.disabled",
      occurredAt: goneAt,
      actor: { kind: "app", userId: null, tokenId: null, name: "" },
      origin: { clientAddress: null, userAgent: null, requestId: null },
      changes: { before: { enabled: true, disabledReason: null }, after: { enabled: false, disabledReason: GONE_REASON } },
    });

    const failing = await claimedDelivery("failing");
    const now = new Date();
    await db().webhookEndpoint.update({ where: { id: failing.endpointId }, data: { failingSince: new Date(now.getTime() - FAILING_ENDPOINT_MS - 60_000) } });
    expect((await recordAttempt(failing, { status: 500, durationMs: 3 }, { schedule: SCHEDULE, now })).disabled).toBe(FAILING_REASON);
    const [failingRecord] = await history("webhook", failing.endpointId);
    expect(failingRecord).toMatchObject({ action: "webhook.disabled", actor: { kind: "app" }, changes: { after: { enabled: false, disabledReason: FAILING_REASON } } });
  });
});

describe("a change whose record cannot be written", () => {
  it("is not made either", async () => {
    const { user: olive, by: oliveBy } = await person("Olive", "owner");
    const { info } = await createApiToken({ label: "kept", scopes: ["plants:read"], lifetimeSeconds: 3600, ownerId: olive.id }, oliveBy);
    const { endpoint: kept } = await endpoint("kept");
    const { endpoint: disabled } = await endpoint("disabled");
    await disableWebhookEndpoint(disabled.id, DISABLED_WITH_CLI_REASON, TEST_BY);
    const gone = await claimedDelivery("gone-unrecorded");
    const sealed = async (id: string) => (await database.query<{ secret: string }>("SELECT secret FROM webhook_endpoints WHERE id = $1", [id]))[0]!.secret;
    const secretBefore = await sealed(kept.id);
    const tokensBefore = await db().apiToken.count();
    const endpointsBefore = await db().webhookEndpoint.count();

    await database.query('ALTER TABLE "activity" RENAME TO "activity_away"');
    try {
      await expect(createApiToken({ label: "orphan", scopes: ["plants:read"], lifetimeSeconds: 60 }, TEST_BY)).rejects.toThrow();
      await expect(revokeApiToken(info.id, oliveBy)).rejects.toThrow();
      await expect(endpoint("orphan")).rejects.toThrow();
      await expect(disableWebhookEndpoint(kept.id, DISABLED_WITH_CLI_REASON, TEST_BY)).rejects.toThrow();
      await expect(enableWebhookEndpoint(disabled.id, TEST_BY)).rejects.toThrow();
      await expect(rotateWebhookEndpointSecret(kept.id, TEST_BY)).rejects.toThrow();
      await expect(deleteWebhookEndpoint(kept.id, TEST_BY)).rejects.toThrow();
      await expect(recordAttempt(gone, { status: 410, durationMs: 3 }, { schedule: SCHEDULE })).rejects.toThrow();
    } finally {
      await database.query('ALTER TABLE "activity_away" RENAME TO "activity"');
    }

    expect(await db().apiToken.count()).toBe(tokensBefore);
    expect((await findApiToken(info.id))!.revokedAt).toBeNull();
    expect(await db().webhookEndpoint.count()).toBe(endpointsBefore);
    expect(await findWebhookEndpoint(kept.id)).toMatchObject({ enabled: true, disabledReason: null, previousSecretExpiresAt: null });
    expect(await sealed(kept.id)).toBe(secretBefore);
    expect(await findWebhookEndpoint(disabled.id)).toMatchObject({ enabled: false, disabledReason: DISABLED_WITH_CLI_REASON });
    expect(await findWebhookEndpoint(gone.endpointId)).toMatchObject({ enabled: true });
    expect(await db().webhookDelivery.findUnique({ where: { id: gone.id } })).toMatchObject({ status: "pending", attempts: 0 });
  });
});
