import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { generateEndpointSecret, sealEndpointSecret } from "@/lib/webhooks/endpoint-secret";
import type { TestDatabase } from "@/test/support/test-database";

// Webhook endpoints of an app under test, written and read straight in its
// database, as the app keeps them: the secret sealed with the app's own
// NEXTAUTH_SECRET, so the app's worker signs with it. Straight in the
// database, so that a test can also write what the app itself would refuse
// (a target the rules forbid).

/** The app's NEXTAUTH_SECRET: the test database's with PostgreSQL; on SQLite, the one the app made in DATA_DIR (start the app first). */
export function appAuthSecret(database: TestDatabase): string {
  return database.env.NEXTAUTH_SECRET ?? readFileSync(path.join(database.dataDir, "auth-secret"), "utf8").trim();
}

/** A time as the database's DateTime columns hold it (UTC), for a query's parameter. */
export function sqlTime(database: TestDatabase, date: Date): string {
  return database.provider === "sqlite" ? date.toISOString().replace("Z", "+00:00") : date.toISOString().replace("T", " ").replace("Z", "");
}

export type TestEndpoint = { id: string; secret: string; previousSecret?: string };

export async function addWebhookEndpoint(
  database: TestDatabase,
  { url, events = ["plant.created", "plant.deleted"], rotating = false }: { url: string; events?: string[]; rotating?: boolean },
): Promise<TestEndpoint> {
  const authSecret = appAuthSecret(database);
  const endpoint: TestEndpoint = { id: randomUUID(), secret: generateEndpointSecret(), ...(rotating ? { previousSecret: generateEndpointSecret() } : {}) };
  await database.query(
    `INSERT INTO webhook_endpoints (id, url, description, events, secret, previous_secret, previous_secret_expires_at, created_at)
     VALUES ($1, $2, '', $3, $4, $5, $6, $7)`,
    [
      endpoint.id,
      url,
      events.join(" "),
      sealEndpointSecret(endpoint.secret, authSecret),
      endpoint.previousSecret ? sealEndpointSecret(endpoint.previousSecret, authSecret) : null,
      endpoint.previousSecret ? sqlTime(database, new Date(Date.now() + 60 * 60 * 1000)) : null,
      sqlTime(database, new Date()),
    ],
  );
  return endpoint;
}

/** Stops deliveries to every endpoint, so that the next test's endpoint is the only one. */
export async function disableAllEndpoints(database: TestDatabase): Promise<void> {
  await database.query(`UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'test over'`);
}

export type EndpointRow = { enabled: boolean; disabledReason: string | null; failingSince: boolean };

export async function endpointRow(database: TestDatabase, id: string): Promise<EndpointRow> {
  const [row] = await database.query<{ enabled: unknown; disabled_reason: string | null; failing_since: unknown }>(
    "SELECT enabled, disabled_reason, failing_since FROM webhook_endpoints WHERE id = $1",
    [id],
  );
  if (!row) throw new Error(`no endpoint ${id}`);
  return { enabled: Boolean(Number(row.enabled)), disabledReason: row.disabled_reason, failingSince: row.failing_since !== null };
}

export type DeliveryRow = { id: string; eventId: string; eventType: string; status: string; attempts: number; lastStatus: number | null; lastError: string | null; claimed: boolean };

export async function deliveryRows(database: TestDatabase, endpointId: string): Promise<DeliveryRow[]> {
  const rows = await database.query<Record<string, unknown>>(
    `SELECT d.id, d.event_id, e.type, d.status, d.attempts, d.last_status, d.last_error, d.claimed_until
     FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.endpoint_id = $1 ORDER BY d.created_at, d.id`,
    [endpointId],
  );
  return rows.map((row) => ({
    id: String(row.id),
    eventId: String(row.event_id),
    eventType: String(row.type),
    status: String(row.status),
    attempts: Number(row.attempts),
    lastStatus: row.last_status === null ? null : Number(row.last_status),
    lastError: row.last_error === null ? null : String(row.last_error),
    claimed: row.claimed_until !== null,
  }));
}
