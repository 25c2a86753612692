// npm start: the production server (lib/server/http-server.ts), as compiled
// by `npm run build` (cli/build-server-and-clis.ts) and run by Node alone. A bad
// configuration stops it here, with the message naming the variable.

// What `next start` sets before Next.js loads: React and Next pick their
// production builds when first required, hence the rest comes after, by import()
// (each its own chunk once compiled, so that nothing of it loads first).
Object.assign(process.env, { NODE_ENV: "production" });

async function main(): Promise<void> {
  const { EnvError } = await import("@/lib/server/env");
  const { describeError, log } = await import("@/lib/server/log");
  const { runServer } = await import("@/lib/server/http-server");
  await runServer().catch((error: unknown) => {
    if (error instanceof EnvError) process.stderr.write(`plant-store: ${error.message}\n`);
    else log.error("server failed to start", describeError(error));
    process.exit(1);
  });
}

void main();
