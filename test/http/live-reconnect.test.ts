import { type Browser, type BrowserContext, chromium, type Page } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAccount } from "@/test/support/accounts";
import { type AppServer, createToken, startApp } from "@/test/support/app-server";
import { chromiumPath } from "@/test/support/chromium";
import { HANG_GUARD_MS } from "@/test/support/hang-guard";
import { signInThrough } from "@/test/support/next-auth-sign-in";

// A staff page whose stream is refused or cut reopens it by itself and catches
// up (issue 44), in a real browser against the real app, for what a browser
// sees: the stream limits' 429, a server that stops (503 for a stream asked
// for during its shutdown delay, then no server at all) and starts again. The
// page says once that its live updates are paused, and once that they resumed.

const PASSWORD = "correct horse battery staple";
const PAUSED = "Live updates paused: reconnecting… Changes made meanwhile will appear once the connection is back.";
const RESUMED = "Live updates resumed: this page shows changes again as they happen.";

let app: AppServer;
let browser: Browser;
let context: BrowserContext;
let token: string;

beforeAll(async () => {
  // One stream per person, so that a second page's is refused while the first holds it; a shutdown delay
  // long enough for any machine to load a page within it (the test kills the server once it has).
  app = await startApp({ env: { LIVE_STREAMS_PER_CALLER: "1", SHUTDOWN_DELAY_MS: String(HANG_GUARD_MS) } });
  await makeAccount(app.database, { email: "olive@plants.example", name: "Olive Owner", role: "owner", password: PASSWORD });
  const { sessionToken } = await signInThrough(app.url, "credentials", { email: "olive@plants.example", password: PASSWORD });
  token = await createToken(app.database, ["plants:write"]);
  browser = await chromium.launch({ executablePath: chromiumPath() });
  context = await browser.newContext();
  context.setDefaultTimeout(HANG_GUARD_MS);
  await context.addCookies([{ name: "next-auth.session-token", value: sessionToken!, url: app.url }]);
});

afterAll(async () => {
  await browser?.close();
  // Killed first: a stop would wait out the shutdown delay of HANG_GUARD_MS, which nothing here is about.
  await app?.kill("SIGKILL");
  await app?.stop();
});

async function addPlant(id: number, tag: string): Promise<void> {
  const response = await fetch(`${app.url}/plants`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ id, name: `Plant ${id}`, tag }),
  });
  expect(response.status, await response.text()).toBe(200);
}

/** The plant list of `tag`, once its stream was answered `status`; with what its connection notice says, in order. */
async function openList(tag: string, status: number): Promise<Page> {
  const page = await context.newPage();
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === "/plants/events" && response.status() === status);
  await page.goto(`${app.url}/?tag=${tag}`);
  await page.locator(".live-connection [aria-live]").evaluate((region) => {
    const said: string[] = [];
    (window as unknown as { said: string[] }).said = said;
    new MutationObserver(() => region.textContent && said.push(region.textContent)).observe(region, { childList: true, characterData: true, subtree: true });
  });
  await answered;
  return page;
}

const said = (page: Page) => page.evaluate(() => (window as unknown as { said: string[] }).said);
const notice = (page: Page) => page.locator(".live-connection [aria-live]");
const newPlants = (page: Page) => page.getByRole("status").filter({ hasText: "since this page was read" });

describe("a staff page's live updates", () => {
  it("retry a stream refused 429 until it is let in, say they were paused and resumed, and miss nothing meanwhile", async () => {
    const holding = await openList("held", 200);
    const waiting = await openList("held", 429);
    await expect.poll(() => notice(waiting).textContent(), { timeout: HANG_GUARD_MS }).toBe(PAUSED);
    await addPlant(4_401, "held");
    await holding.close();

    await expect.poll(() => newPlants(waiting).textContent(), { timeout: HANG_GUARD_MS }).toBe("1 new plant since this page was read.");
    // "Resumed" says so for a while, then goes; each was said once.
    await expect.poll(() => said(waiting), { timeout: HANG_GUARD_MS }).toEqual([PAUSED, RESUMED]);
    await expect.poll(() => notice(waiting).textContent(), { timeout: HANG_GUARD_MS }).toBe("");
    expect(await said(waiting)).toEqual([PAUSED, RESUMED]);
    await waiting.close();
  });

  it("reopen a stream refused while the server stops, and catch up once a new one is back", async () => {
    // SIGTERM: the server answers through its shutdown delay, but refuses new streams (503).
    process.kill(app.pid()!, "SIGTERM");
    await expect.poll(async () => (await fetch(`${app.url}/readyz`)).status, { timeout: HANG_GUARD_MS }).toBe(503);
    const page = await openList("stopping", 503);
    // A change after the page was read, which only a stream opened later can tell it of.
    await addPlant(4_402, "stopping");
    // Then the server is gone, and another starts on the same data.
    await app.kill("SIGKILL");
    await app.restart();
    await addPlant(4_403, "stopping");

    await expect.poll(() => newPlants(page).textContent(), { timeout: HANG_GUARD_MS }).toBe("2 new plants since this page was read.");
    await page.close();
  });
});
