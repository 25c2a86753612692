import { env, EnvError } from "@/lib/env";
import { log, describeError } from "@/lib/log";
import { migrate } from "@/lib/migrate";

/**
 * Runs once when the server starts (instrumentation.ts): validates the
 * configuration and brings the database schema up to date, so a fresh
 * install needs no manual step. A failure here stops the process with a
 * message instead of serving requests against a broken setup.
 */
export function startServer(): void {
  try {
    const config = env();
    const applied = migrate(config.databasePath);
    log.info("database ready", { database: config.databasePath, migrationsApplied: applied });
  } catch (error) {
    if (error instanceof EnvError) {
      process.stderr.write(`plant-store: ${error.message}\n`);
    } else {
      log.error("start-up failed", describeError(error));
    }
    process.exit(1);
  }
}
