import { assumedRelyingPartyWarning } from "@/lib/auth/second-factors/passkey-relying-party";
import { describeDatabase } from "@/lib/db/database-url";
import { migrate } from "@/lib/db/migrate";
import { sqliteDanglingRows } from "@/lib/db/sqlite";
import { isClusterWorker } from "@/lib/server/cluster-role";
import { env, EnvError, requireSharedSecrets, type SharedSecret, WEB_SERVER_SECRETS } from "@/lib/server/env";
import { describeError, log } from "@/lib/server/log";
import { processGlobal } from "@/lib/server/process-global";

/**
 * Validates the configuration and brings the database schema up to date, once
 * per process, so a fresh install needs no manual step: before the production
 * server opens its port (lib/server/http-server.ts; with several workers, in
 * the primary before it forks them), and from
 * instrumentation.ts under `next dev`, which then finds it done; and before
 * `npm run worker` sends webhooks, which uses NEXTAUTH_SECRET alone of the
 * web server's `secrets`. A failure stops the process with a message instead
 * of serving a broken setup.
 */
export function startServer(secrets: readonly SharedSecret[] = WEB_SERVER_SECRETS): Promise<void> {
  return processGlobal("startup", async () => {
    try {
      const config = env();
      requireSharedSecrets(secrets, config);
      // A worker of several: the primary did all this once, before it forked any (lib/server/cluster-primary.ts).
      if (isClusterWorker()) return;
      const applied = await migrate(config.database);
      log.info("database ready", { database: describeDatabase(config.database), migrationsApplied: applied });
      // With PostgreSQL, foreign keys are always enforced; a SQLite file can be edited with them off.
      const dangling = config.database.provider === "sqlite" ? sqliteDanglingRows(config.database.path) : [];
      if (dangling.length > 0) log.warn("rows whose foreign key points at nothing; the app ignores them", { rows: dangling.slice(0, 20), count: dangling.length });
      const assumption = assumedRelyingPartyWarning();
      if (assumption) log.warn(assumption);
    } catch (error) {
      if (error instanceof EnvError) {
        process.stderr.write(`plant-store: ${error.message}\n`);
      } else {
        log.error("start-up failed", describeError(error));
      }
      process.exit(1);
    }
  });
}
