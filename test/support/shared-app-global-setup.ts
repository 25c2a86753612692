import type { TestProject } from "vitest/node";
import { startApp, troubleReport } from "./app-server";
import type { SharedAppPlace } from "./shared-app";
import { makeTestDatabase } from "./test-database";

// Vitest's global setup for the HTTP projects (issue 20): one built app per
// engine, on a fresh database of the project's engine, which the HTTP test
// files share instead of starting one each (test/support/shared-app.ts). It
// runs in Vitest's own process, before the workers start, and hands them where
// the app is; at the end of the run it stops the app and drops its database.
// For http-postgres it runs after postgres-global-setup.ts, which fixes the
// prefix of the run's database names (this database's too).

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The project's env reaches the workers only: here it is read from the project's config.
  const engine = project.config.env.TEST_DATABASE || "sqlite";
  if (engine !== "sqlite" && engine !== "postgresql") throw new Error(`project ${project.name}: TEST_DATABASE=${engine}: use sqlite or postgresql`);
  const database = await makeTestDatabase(engine);
  const app = await startApp({ database }).catch(async (error: unknown) => {
    await database.drop();
    throw error;
  });
  const { provider, config, dataDir, url, env } = database;
  const place: SharedAppPlace = { url: app.url, port: app.port, database: { provider, config, dataDir, url, env } };
  project.provide("sharedApp", place);

  return async () => {
    // An app that stopped answering during the run failed every file on it: say why, once.
    const answering = await fetch(`${app.url}/plants`, { method: "OPTIONS" }).then(
      () => true,
      () => false,
    );
    // A failed test on the shared app shows only its assertion; the app's errors say why (test/support/app-failures.ts).
    const trouble = troubleReport(app);
    if (trouble) console.error(`project ${project.name}, the shared app: ${trouble}`);
    await app.stop();
    await database.drop();
    if (!answering) throw new Error(`the shared app of project ${project.name} stopped during the run:\n${app.output()}`);
  };
}
