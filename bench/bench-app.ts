import type { DatabaseProvider } from "@/lib/db/database-url";
import { type AppServer, createToken, startApp } from "@/test/support/app-server";
import { makeTestDatabase } from "@/test/support/test-database";

// What every bench script starts from: the built app on a fresh database of
// one engine, a plants:write token, and plants 1 to `stored` already there.

export type BenchApp = { app: AppServer; headers: { authorization: string } };

export async function startBenchApp(
  engine: DatabaseProvider,
  {
    stored,
    env = {},
    nodeOptions,
    root,
    keepOutput = false,
  }: { stored: number; env?: Partial<NodeJS.ProcessEnv>; nodeOptions?: string[]; root?: string; keepOutput?: boolean },
): Promise<BenchApp> {
  // One token drives hundreds of requests a second here: its rate limit is not what is measured.
  const app = await startApp({ database: await makeTestDatabase(engine), env: { RATE_LIMIT_API: "off", ...env }, nodeOptions, keepOutput, root });
  try {
    const headers = { authorization: `Bearer ${await createToken(app.database, ["plants:write"], "1h")}` };
    for (let id = 1; id <= stored; id++) {
      const response = await fetch(`${app.url}/plants`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: `{"id":${id},"name":"Stored fern ${id}"}` });
      if (response.status !== 200) throw new Error(`storing plants on ${engine} answered ${response.status}`);
    }
    return { app, headers };
  } catch (error) {
    await stopBenchApp(app);
    throw error;
  }
}

export async function stopBenchApp(app: AppServer): Promise<void> {
  await app.stop();
  await app.database.drop();
}
