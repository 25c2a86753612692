// Next.js calls register() once per server process, and waits for it, before it serves requests.
export async function register() {
  // The edge runtime (middleware) has no filesystem or database drivers.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServer } = await import("@/lib/server/startup");
  await startServer();
}
