import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test as base, type BrowserContext, expect, type Page } from "@playwright/test";
import type { E2eDatabase } from "../test/support/e2e-databases";
import { queryDatabaseAt } from "../test/support/test-database";
import { type Store, startStore } from "./support/store";

// Shared by the specs: the database of the app under test (one per engine,
// from the project's options), the owner made by the setup project, and the
// checks every page gets.

type Fixtures = {
  /** Where the setup project keeps the signed-in owner's cookies for the others. */
  ownerState: string;
  /** Makes an account in this app's database, as the operator's `user create` does (e2e/support/store.ts). */
  createAccount: (user: { email: string; name: string; role: "owner" | "staff"; password: string }) => Promise<void>;
  /** Makes an account and signs it in, in a browser context of its own (closed after the test): its page, at the plant list. */
  signedInNewAccount: (user: { email: string; name: string; role: "owner" | "staff"; password: string }) => Promise<Page>;
  /** Runs SQL on this app's database ($1, $2... placeholders), to set up what no page can (an endpoint the app disabled, say). */
  sql: (statement: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;
};

export const test = base.extend<Fixtures, { database: E2eDatabase; store: Store }>({
  // Set by each project in playwright.config.ts.
  database: [undefined as unknown as E2eDatabase, { option: true, scope: "worker" }],
  // Accounts, tokens and one-time links in the lane's database, by one helper process per worker, started when a test first asks.
  store: [
    async ({ database }, provide) => {
      const store = startStore(database);
      await provide(store);
      await store.stop();
    },
    { scope: "worker" },
  ],
  // Every page of every test runs under the app's Content Security Policy: anything it blocks fails the test.
  page: async ({ page }, provide) => {
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await provide(page);
    expect(violations, "Content Security Policy violations").toEqual([]);
  },
  ownerState: async ({ database }, provide) => provide(path.join(database.dataDir, "owner-storage-state.json")),
  createAccount: async ({ store }, provide) =>
    provide(async (user) => {
      await store.createUser(user);
    }),
  signedInNewAccount: async ({ browser, createAccount }, provide) => {
    const contexts: BrowserContext[] = [];
    await provide(async (user) => {
      await createAccount(user);
      const context = await browser.newContext({ storageState: SIGNED_OUT });
      contexts.push(context);
      const page = await context.newPage();
      await page.goto("/sign-in");
      await signIn(page, user.email, user.password);
      await expect(page.getByRole("heading", { name: "Plants" })).toBeVisible();
      return page;
    });
    await Promise.all(contexts.map((context) => context.close()));
  },
  sql: async ({ database }, provide) => provide((statement, params) => queryDatabaseAt(database.provider, database.env.DATABASE_URL!, statement, params)),
});

export { expect };

export const OWNER = { email: "owner@plants.example", name: "Olive Owner", password: "correct horse battery staple" };

/** For specs that start signed out. */
export const SIGNED_OUT = { cookies: [], origins: [] };

/**
 * WCAG 2.2 A and AA and best practice, as axe checks them: zero violations. axe.run in the page itself (legacy
 * mode), not axe.runPartial in each frame and axe.finishRun in a blank page of its own: the app draws no frames,
 * and carrying every element's results over to that page cost the API reference 16 of its 46 s of axe
 * (issue 44). The rules and what they find are the same.
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  const summary = results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.join(" ")),
  }));
  expect(summary, `axe violations on ${page.url()}`).toEqual([]);
}

/**
 * Signs the page's browser out by forgetting its cookies. A staff page is left first: its change feed,
 * refused once the cookie is gone, would reload it by itself (issue 44), racing the spec's next goto.
 */
export async function forgetSession(page: Page): Promise<void> {
  await page.goto("about:blank");
  await page.context().clearCookies();
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}
