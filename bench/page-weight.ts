// npm run bench:page-weight: the JavaScript a signed-in staff member's browser
// downloads for a page, as it downloads it: the built app is started on a
// fresh database with an owner, the page's HTML is fetched with the owner's
// session, and every script it loads (src of <script> tags, and the chunks
// Next names in its flight data) is fetched and measured raw and gzipped.
//   BENCH_PAGES  comma-separated paths (default /plants/new,/)
import { existsSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { startBenchApp, stopBenchApp } from "@/bench/bench-app";
import { runCli } from "@/test/support/cli";

const ROOT = path.resolve(import.meta.dirname, "..");
const PAGES = (process.env.BENCH_PAGES ?? "/plants/new,/").split(",");
const OWNER = { email: "owner@example.com", password: "a long enough passphrase" };

/** Signs in through next-auth's credentials flow; answers the Cookie header that carries the session. */
async function signIn(url: string): Promise<string> {
  const csrf = await fetch(`${url}/api/auth/csrf`);
  const cookies = (csrf.headers.getSetCookie?.() ?? []).map((cookie) => cookie.split(";")[0]).join("; ");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies },
    body: new URLSearchParams({ csrfToken, email: OWNER.email, password: OWNER.password, json: "true" }),
  });
  const session = (response.headers.getSetCookie?.() ?? []).map((cookie) => cookie.split(";")[0]).find((cookie) => cookie?.includes("session-token"));
  if (!session) throw new Error(`signing in failed with ${response.status}`);
  return `${cookies}; ${session}`;
}

async function main() {
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("build the app first: npm run build");
  const { app } = await startBenchApp("sqlite", { stored: 0 });
  try {
    const made = await runCli("user", ["create", "--email", OWNER.email, "--role", "owner", "--name", "Owner"], { database: app.database, stdin: `${OWNER.password}\n` });
    if (made.code !== 0) throw new Error(made.stderr);
    const cookie = await signIn(app.url);
    for (const page of PAGES) {
      const response = await fetch(`${app.url}${page}`, { headers: { cookie } });
      if (response.status !== 200) throw new Error(`${page} answered ${response.status}`);
      const html = await response.text();
      const scripts = new Set([...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1]!));
      // Chunks a page loads through Next's flight data rather than a <script> tag.
      for (const match of html.matchAll(/\/_next\/static\/chunks\/[\w\-.~]+\.js/g)) scripts.add(match[0]);
      let raw = 0;
      let gzip = 0;
      for (const script of scripts) {
        const body = Buffer.from(await (await fetch(new URL(script, app.url))).arrayBuffer());
        raw += body.length;
        gzip += gzipSync(body, { level: 9 }).length;
      }
      console.log(`${page.padEnd(14)} ${String(scripts.size).padStart(3)} scripts   ${(raw / 1024).toFixed(0).padStart(5)} kB raw   ${(gzip / 1024).toFixed(0).padStart(5)} kB gzip`);
    }
  } finally {
    await stopBenchApp(app);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
