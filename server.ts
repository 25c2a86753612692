// npm start (`node --max-old-space-size=256 --import tsx server.ts`): the production server
// (lib/server/http-server.ts). A bad configuration stops it here, with the
// message naming the variable. tsx is loaded into this process rather than
// run as a CLI: its CLI runs a script as a child process and SIGKILLs it when
// it does not acknowledge a signal within 30 ms, which would cut a graceful
// shutdown short on a busy machine.

// What `next start` sets before Next.js loads: React and Next pick their
// production builds when first required, hence the import below comes after.
Object.assign(process.env, { NODE_ENV: "production" });

// tsx turns Node's source-map support on for the whole process; `next start`
// leaves it off. On, Node reads the source map of every chunk Next loads (a
// few MB each) and keeps it: measured, 40 MB more heap and RSS, for stack
// traces an operator may ask for with NODE_OPTIONS=--enable-source-maps.
if (!process.execArgv.includes("--enable-source-maps") && !process.env.NODE_OPTIONS?.includes("--enable-source-maps")) {
  process.setSourceMapsEnabled(false);
}

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
