// npm run bench:page-weight: the JavaScript a staff member's browser downloads
// to open each staff page, gzipped, against the budget (issue 20: 180 kB).
// The built app is started on a fresh database with a plant; Chromium (the one
// the e2e specs drive) opens each page with an empty cache and weighs what it
// fetches (test/support/script-weight.ts says what counts): "later" is the
// part the page fetched by itself after it loaded. /setup is weighed first,
// signed out, as it exists only while there is no account (then it answers
// 404); then an owner and a webhook endpoint are made, /sign-in is weighed
// signed out and every other page signed in. Exits 1 when a page is over budget.
//   BENCH_PAGES  comma-separated paths, {id} for the endpoint's (default: every staff page)
import { existsSync } from "node:fs";
import path from "node:path";
import { type BrowserContext, chromium } from "@playwright/test";
import { startBenchApp, stopBenchApp } from "@/bench/bench-app";
import { runCli } from "@/test/support/cli";
import { chromiumPath } from "@/test/support/chromium";
import { PAGE_SCRIPT_BUDGET, weighPageScripts } from "@/test/support/script-weight";

const ROOT = path.resolve(import.meta.dirname, "..");
const OWNER = { email: "owner@example.com", password: "a long enough passphrase" };

/** Signs in through next-auth's credentials flow; answers the session's cookies. */
async function signIn(url: string): Promise<{ name: string; value: string }[]> {
  const csrf = await fetch(`${url}/api/auth/csrf`);
  const cookies = (csrf.headers.getSetCookie?.() ?? []).map((cookie) => cookie.split(";")[0]!);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies.join("; ") },
    body: new URLSearchParams({ csrfToken, email: OWNER.email, password: OWNER.password, json: "true" }),
  });
  const session = (response.headers.getSetCookie?.() ?? []).map((cookie) => cookie.split(";")[0]!).find((cookie) => cookie.includes("session-token"));
  if (!session) throw new Error(`signing in failed with ${response.status}`);
  return [...cookies, session].map((cookie) => {
    const [name = "", ...value] = cookie.split("=");
    return { name, value: value.join("=") };
  });
}

const kB = (bytes: number) => (bytes / 1024).toFixed(0).padStart(5);

/** Pages weighed signed out: the ones a person opens before they have a session. */
const SIGNED_OUT = new Set(["/setup", "/sign-in"]);

const DEFAULT_PAGES = "/setup,/sign-in,/,/plants/new,/plants/1,/import,/tokens,/webhooks,/webhooks/{id}";

async function main() {
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("build the app first: npm run build");
  const pages = (process.env.BENCH_PAGES ?? DEFAULT_PAGES).split(",");
  const { app } = await startBenchApp("sqlite", { stored: 1 });
  const browser = await chromium.launch({ executablePath: chromiumPath() });
  let over = 0;
  async function weigh(pagePath: string, name: string, cookies: Parameters<BrowserContext["addCookies"]>[0]) {
    // A context of its own: an empty cache, as on a first visit (or the first after a new build).
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    await context.addCookies(cookies);
    const weight = await weighPageScripts(await context.newPage(), `${app.url}${pagePath}`);
    await context.close();
    const above = weight.gzip > PAGE_SCRIPT_BUDGET;
    if (above) over++;
    console.log(`${name.padEnd(20)} ${String(weight.scripts).padStart(7)}  ${kB(weight.raw)}    ${kB(weight.gzip)}    ${kB(weight.laterGzip)}  ${above ? "OVER" : "ok"}`);
  }
  try {
    console.log(`${"page".padEnd(20)} scripts   raw kB  gzip kB  (later)  budget ${kB(PAGE_SCRIPT_BUDGET).trim()} kB`);
    // Before any account exists: afterwards /setup is gone.
    if (pages.includes("/setup")) await weigh("/setup", "/setup", []);

    const made = await runCli("user", ["create", "--email", OWNER.email, "--role", "owner", "--name", "Owner"], { database: app.database, stdin: `${OWNER.password}\n` });
    if (made.code !== 0) throw new Error(made.stderr);
    const hook = await runCli("webhook", ["create", "--url", "http://127.0.0.1:9/bench", "--event", "plant.created"], {
      database: app.database,
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" },
    });
    const endpoint = /created webhook endpoint (\S+)/.exec(hook.stderr)?.[1];
    if (!endpoint) throw new Error(hook.stderr);
    const cookies = (await signIn(app.url)).map((cookie) => ({ ...cookie, url: app.url }));

    for (const name of pages.filter((page) => page !== "/setup")) {
      await weigh(name.replace("{id}", endpoint), name, SIGNED_OUT.has(name) ? [] : cookies);
    }
  } finally {
    await browser.close();
    await stopBenchApp(app);
  }
  if (over > 0) {
    console.error(`${over} page${over === 1 ? "" : "s"} over the budget of ${kB(PAGE_SCRIPT_BUDGET).trim()} kB of gzipped script`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
