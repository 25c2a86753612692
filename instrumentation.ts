// Next.js calls register() once per server process before it serves requests.
export async function register() {
  // The edge runtime (middleware) has no filesystem or SQLite.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServer } = await import("@/lib/startup");
  startServer();
}
